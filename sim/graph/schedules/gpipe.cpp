// GPipe (Huang et al., NeurIPS 2019, "GPipe: Efficient Training of Giant Neural Networks using
// Pipeline Parallelism", Fig. 2c): every micro-batch's forward, then every backward. Each stage
// holds all m micro-batches' activations at the turn; bubble (p-1)(F+B) per stage.
#include "sim/graph/schedule_common.hpp"

namespace trainsim {

ScheduleInfo gpipe_schedule() {
  ScheduleInfo info;
  info.name = "gpipe";
  info.description = "GPipe: all forwards, then all backwards (Huang et al. 2019); holds m micro-batches";
  info.check = [](const ScheduleParams& params) {
    check_schedule_params("gpipe", params);
    require_one_chunk("gpipe", params);
  };
  info.steps = [check = info.check](const ScheduleParams& params, int stage) {
    check(params);
    check_schedule_params("gpipe", params, stage);
    std::vector<ScheduleStep> steps;
    for (int mb = 0; mb < params.microbatches; ++mb) steps.push_back({Phase::kForward, mb, 0});
    for (int mb = 0; mb < params.microbatches; ++mb) steps.push_back({Phase::kBackward, mb, 0});
    return steps;
  };
  return info;
}

}  // namespace trainsim
