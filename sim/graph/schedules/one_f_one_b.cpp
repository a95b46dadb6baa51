// 1F1B, i.e. PipeDream-Flush as scheduled by Megatron-LM without interleaving (Narayanan et al.,
// SC'21, "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
// §2.2.1): stage i runs min(p-i-1, m) warm-up forwards, then alternates one forward and one
// backward, then drains the remaining backwards. Stage i holds at most min(p-i, m) micro-batches.
#include <algorithm>

#include "sim/graph/schedule_common.hpp"

namespace trainsim {

std::vector<ScheduleStep> one_f_one_b_steps(const ScheduleParams& params, int stage) {
  const int m = params.microbatches;
  const int warmup = std::min(params.stages - stage - 1, m);
  std::vector<ScheduleStep> steps;
  steps.reserve(2 * m);
  for (int mb = 0; mb < warmup; ++mb) steps.push_back({Phase::kForward, mb, 0});
  for (int i = 0; i < m - warmup; ++i) {  // steady state: the forward of mb warmup+i, the backward of mb i
    steps.push_back({Phase::kForward, warmup + i, 0});
    steps.push_back({Phase::kBackward, i, 0});
  }
  for (int mb = m - warmup; mb < m; ++mb) steps.push_back({Phase::kBackward, mb, 0});  // cool-down
  return steps;
}

ScheduleInfo one_f_one_b_schedule() {
  ScheduleInfo info;
  info.name = "1f1b";
  info.description =
      "1F1B (PipeDream-Flush, Megatron non-interleaved; Narayanan et al. SC'21): warm-up, one forward "
      "one backward, cool-down; stage i holds min(p-i, m) micro-batches";
  info.check = [](const ScheduleParams& params) {
    check_schedule_params("1f1b", params);
    require_one_chunk("1f1b", params);
  };
  info.steps = [check = info.check](const ScheduleParams& params, int stage) {
    check(params);
    check_schedule_params("1f1b", params, stage);
    return one_f_one_b_steps(params, stage);
  };
  return info;
}

}  // namespace trainsim
