// Where a run's EP overlap (strategy.overlap.ep_comm, Megatron-Core's combined 1F1B) applies, the
// one rule the graph builder (sim/graph/merged_passes.hpp), the iteration formulas and the run
// rules share: an MoE model with ep > 1, no pipelining (pp 1, schedule 1f1b: Megatron-Core's
// combined_1f1b_schedule_for_no_pipelining), no full recompute and ZeRO below 3.
#pragma once
#include <string>

#include "sim/config/run_spec.hpp"

namespace trainsim {

// Why the run's strategy cannot merge its passes ("" when it can), for the run rules' message.
[[nodiscard]] std::string ep_overlap_obstacle(const RunSpec& run);
// overlap.ep_comm is on and nothing stands in its way.
[[nodiscard]] bool merges_ep_passes(const RunSpec& run);
// Merged steps per iteration without pipelining: the first forward and the last backward run
// alone, the m - 1 pairs in between (backward i with forward i + 1) merge.
[[nodiscard]] int merged_steps(const RunSpec& run);

}  // namespace trainsim
