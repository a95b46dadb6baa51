// ZB-H1 (Qi et al., "Zero Bubble (Almost) Pipeline Parallelism", ICLR 2024, §2.1): the backward is
// split into B (input gradient, on the critical path) and W (weight gradient, deferrable). F and B
// keep the 1F1B order, so every stage holds the same activations as in 1F1B; stage i (0-based)
// postpones its W passes so that up to i of them wait, and runs the postponed ones in the
// cool-down, where 1F1B would idle. Paper Table 2: bubble (p-1)(T_F + T_B - T_W) versus 1F1B's
// (p-1)(T_F + T_B + T_W); worker i's activations (p-i)M_B + i M_W (0-based i).
#include <deque>

#include "sim/graph/schedule_common.hpp"

namespace trainsim {
namespace {

std::vector<ScheduleStep> zb_h1_steps(const ScheduleParams& params, int stage) {
  std::vector<ScheduleStep> steps;
  std::deque<int> waiting_w;  // micro-batches whose B ran but whose W has not
  for (const ScheduleStep& s : one_f_one_b_steps(params, stage)) {
    if (s.phase == Phase::kForward) {
      steps.push_back(s);
      continue;
    }
    steps.push_back({Phase::kBackwardInput, s.microbatch, 0});
    waiting_w.push_back(s.microbatch);
    if (static_cast<int>(waiting_w.size()) > stage) {  // stage i lets at most i W passes wait
      steps.push_back({Phase::kWeightGrad, waiting_w.front(), 0});
      waiting_w.pop_front();
    }
  }
  for (int mb : waiting_w) steps.push_back({Phase::kWeightGrad, mb, 0});  // fill the cool-down
  return steps;
}

}  // namespace

ScheduleInfo zb_h1_schedule() {
  ScheduleInfo info;
  info.name = "zb-h1";
  info.description =
      "ZB-H1 zero-bubble (Qi et al. ICLR 2024): 1F1B order with B split into input and weight gradients; "
      "W passes fill the cool-down; bubble (p-1)(F+B-W), same activations as 1f1b";
  info.check = [](const ScheduleParams& params) {
    check_schedule_params("zb-h1", params);
    require_one_chunk("zb-h1", params);
  };
  info.steps = [check = info.check](const ScheduleParams& params, int stage) {
    check(params);
    check_schedule_params("zb-h1", params, stage);
    return zb_h1_steps(params, stage);
  };
  return info;
}

}  // namespace trainsim
