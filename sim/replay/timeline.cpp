#include "sim/replay/timeline.hpp"

namespace trainsim {

const char* to_string(TimeCategory c) {
  switch (c) {
    case TimeCategory::kForward: return "forward";
    case TimeCategory::kBackward: return "backward";
    case TimeCategory::kRecompute: return "recompute";
    case TimeCategory::kOptimizer: return "optimizer";
    case TimeCategory::kExposedTp: return "exposed_tp";
    case TimeCategory::kExposedCp: return "exposed_cp";
    case TimeCategory::kExposedEp: return "exposed_ep";
    case TimeCategory::kExposedDp: return "exposed_dp";
    case TimeCategory::kBubble: return "pipeline_bubble";
    case TimeCategory::kExposedPp: return "exposed_pp";
    case TimeCategory::kHost: return "host";
    case TimeCategory::kIdle: return "idle";
  }
  return "?";
}

}  // namespace trainsim
