// The key tables of a run file (workloads/*.yaml): the top level, `strategy`, `strategy.overlap`,
// `dropout`, `fp8` and `moe` (sim/config/key_table.hpp). Internal to sim/config.
#pragma once
#include "sim/config/key_table.hpp"
#include "sim/config/run_spec.hpp"

namespace trainsim {

[[nodiscard]] const KeyTable<RunSpec>& run_keys();
[[nodiscard]] const KeyTable<StrategySpec>& strategy_keys();
[[nodiscard]] const KeyTable<OverlapSpec>& overlap_keys();
[[nodiscard]] const KeyTable<DropoutSpec>& dropout_keys();
[[nodiscard]] const KeyTable<Fp8Spec>& fp8_keys();
[[nodiscard]] const KeyTable<MoeRouting>& moe_routing_keys();

}  // namespace trainsim
