// The rules a run must satisfy that involve only its inputs (run + model + platform):
// degrees multiply to devices, tp divides heads and kv_heads, cp divides seq_len, ...
// Each violation is a ConfigError at the run key that holds the offending value (or the
// --set override that set it), listing the values that would be valid. Internal to sim/config.
#pragma once
#include "sim/config/run_spec.hpp"
#include "sim/config/yaml_source.hpp"

namespace trainsim {

// `source` is the run file's source, after parsing (it knows where each key was read).
// The rules that do not involve the strategy: devices against the platform (max_devices, whole
// domains), the precision's peak.
void check_strategy_free_rules(const RunSpec& run, const YamlSource& source);
void check_run_rules(const RunSpec& run, const YamlSource& source);
// The pipeline schedule: registered, suited to p, m and v, and m v within the expansion bound
// (sim/config/schedule_rules.cpp). Needs the batch rules checked first.
void check_schedule_rules(const RunSpec& run, const YamlSource& source);

}  // namespace trainsim
