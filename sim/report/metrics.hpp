// Headline numbers of a replayed iteration, derived from the Timeline and the run.
#pragma once
#include <array>
#include <vector>

#include "sim/config/run_spec.hpp"
#include "sim/replay/timeline.hpp"

namespace trainsim {

struct RunMetrics {
  Seconds iteration_time = 0;       // seconds
  double tokens_per_s = 0;          // global_batch * seq_len / iteration_time
  Flops model_flops = 0;            // per iteration, no recompute (the MFU numerator)
  Flops narayanan_flops = 0;        // per iteration, counting recomputed forwards (Narayanan SC'21 eq. 3)
  double tflops_per_device = 0;     // narayanan_flops / time / devices / 1e12 (what Megatron papers report)
  double mfu = 0;                   // model_flops / (time * devices * peak)
  std::array<Seconds, kTimeCategories> breakdown{};  // mean over replayed devices, seconds
  int devices = 0;
  int devices_replayed = 0;
};

[[nodiscard]] RunMetrics compute_metrics(const RunSpec& run, const Timeline& timeline);
// global_batch * seq_len / t, for an iteration of `t` seconds (t > 0).
[[nodiscard]] double tokens_per_second(const RunSpec& run, Seconds t);
// Model FLOPs utilisation of an iteration of `t` seconds: the model's FLOPs (no recompute) over
// t x devices x the accelerator's dense peak at the run's precision (0 when it has none).
[[nodiscard]] double model_flops_utilization(const RunSpec& run, Seconds t);
// Model FLOPs per iteration with full recompute counted like Narayanan et al. (the forward of
// every layer again, not of the logits layer): equals 96BslH^2(1 + s/6h + V/16lh) for GPT.
[[nodiscard]] Flops narayanan_flops(const RunSpec& run);

}  // namespace trainsim
