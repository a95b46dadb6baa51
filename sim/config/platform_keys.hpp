// The key tables of a platform file: the top level, `accelerator` and each entry of `tiers`
// (sim/config/key_table.hpp). Internal to sim/config.
#pragma once
#include "sim/config/key_table.hpp"
#include "sim/config/platform_spec.hpp"

namespace trainsim {

[[nodiscard]] const KeyTable<PlatformSpec>& platform_keys();
[[nodiscard]] const KeyTable<AcceleratorSpec>& accelerator_keys();
[[nodiscard]] const KeyTable<TierSpec>& tier_keys();

}  // namespace trainsim
