// The key tables of a framework (workloads/frameworks/*.yaml, or a run's `framework:` map): the
// top level, `host`, `memory` and `moe` (sim/config/key_table.hpp). Internal to sim/config.
#pragma once
#include "sim/config/framework_spec.hpp"
#include "sim/config/key_table.hpp"

namespace trainsim {

[[nodiscard]] const KeyTable<FrameworkSpec>& framework_keys();
[[nodiscard]] const KeyTable<HostCosts>& host_keys();
[[nodiscard]] const KeyTable<FrameworkMemory>& framework_memory_keys();
[[nodiscard]] const KeyTable<FrameworkMoe>& framework_moe_keys();
// PartitionMethod as YAML spells it.
[[nodiscard]] const EnumNames<PartitionMethod>& partition_names();

}  // namespace trainsim
