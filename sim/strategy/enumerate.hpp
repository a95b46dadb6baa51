// Enumeration of the parallel degrees a device count admits: every (tp, pp, dp, cp) whose
// product is the device count, with tp a power of two that divides the attention heads and
// does not exceed a bound (usually the devices of one node). The search filters these further
// (memory, layers per stage, ep) and ranks them.
#pragma once
#include <vector>

namespace trainsim {

struct ParallelDegrees {
  int tp = 1, pp = 1, dp = 1, cp = 1;  // tp * pp * dp * cp = devices
};

// All factorisations, ordered by tp, then pp, then cp (dp follows), each ascending.
// Throws StrategyError when devices, heads or max_tp is below 1.
[[nodiscard]] std::vector<ParallelDegrees> enumerate_degrees(int devices, int heads, int max_tp);

}  // namespace trainsim
