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
};

struct ScheduleInfo {
  std::string name;
  std::string description;
  // Returns the order of steps on `stage`; throws StrategyError if params don't suit it
  // (e.g. interleaved needs m % p == 0).
  std::function<std::vector<ScheduleStep>(const ScheduleParams&, int stage)> steps;
};

[[nodiscard]] const std::vector<ScheduleInfo>& schedules();       // all registered, sorted by name
[[nodiscard]] const ScheduleInfo& find_schedule(const std::string& name);  // throws UserError listing names

}  // namespace trainsim
