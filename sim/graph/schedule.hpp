// Pipeline schedules: for one pipeline stage, the order in which it runs the forward (F),
// backward (B) and — for zero-bubble schedules — separate weight-gradient (W) passes of each
// micro-batch and model chunk. A schedule is one file registering itself in the registry.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace trainsim {

enum class Phase : uint8_t {
  kForward,         // F: forward of one micro-batch through one chunk
  kBackward,        // B: input-gradient AND weight-gradient (schedules without a W split)
  kBackwardInput,   // B only (zero-bubble schedules, paired with kWeightGrad)
  kWeightGrad,      // W: weight gradients of one micro-batch through one chunk
};

struct ScheduleStep {
  Phase phase;
  int microbatch;  // 0 .. m-1
  int chunk;       // virtual chunk 0 .. v-1 on this stage (model chunk index = chunk * p + stage)
};

struct ScheduleParams {
  int stages = 1;        // p
  int microbatches = 1;  // m
  int virtual_stages = 1;  // v
  // Interleaved only (v > 1): warm-up forwards beyond the schedule's own count (PipelineShape::extra_warmup).
  int extra_warmup = 0;
};

// The most (micro-batch, chunk) passes one stage may run in one iteration (m * v). A schedule
// expands into about 2 m v steps per stage, and the replay into tasks for every layer of every
// step, so memory and time grow with m v; runs are checked against this bound when they are
// loaded, before anything is expanded. 2^16 is 16 times the largest m v of the bundled and
// validation runs (validation/runs/ms-llama2-70b.yaml: m 1024, v 4 = 4096), and keeps the step
// counts 2 m v (and 3 m for zero-bubble schedules) far from INT_MAX.
inline constexpr long long kMaxChunkPassesPerStage = 1LL << 16;
// The most layer passes one stage's task graph may hold: m * (layers / p), every micro-batch
// through every layer of the stage. The replay costs about 27 KB and 6 ms per layer pass
// (measured: workloads/default.yaml, 16 layers per stage, m 8 to 256: 0.7 s / 40 MB to 24 s /
// 148 MB), so 2^18 is about 7 GB and half an hour; it is 12 times the largest of the bundled and
// validation runs (validation/runs/ms-llama2-70b.yaml: m 1024 * 80 layers / pp 4 = 20,480).
inline constexpr long long kMaxLayerPassesPerStage = 1LL << 18;

struct ScheduleInfo {
  std::string name;
  std::string description;
  // Throws StrategyError if params don't suit the schedule (e.g. interleaved needs m % p == 0,
  // every schedule needs m v <= kMaxChunkPassesPerStage), without expanding any step.
  std::function<void(const ScheduleParams&)> check;
  // Returns the order of steps on `stage`; runs `check` first.
  std::function<std::vector<ScheduleStep>(const ScheduleParams&, int stage)> steps;
};

[[nodiscard]] const std::vector<ScheduleInfo>& schedules();       // all registered, sorted by name
[[nodiscard]] const ScheduleInfo& find_schedule(const std::string& name);  // throws UserError listing names

}  // namespace trainsim
