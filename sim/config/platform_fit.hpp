// Whether a run fits the platform it names: no more devices than the platform models or its
// outermost tier joins, whole domains of every tier, and a peak rate for the run's precision. Pure functions, so that
// the run loader (which reports at the key's line) and commands that compose runs themselves
// (`search`) apply the same rules.
#pragma once
#include <optional>
#include <string>

#include "sim/config/run_spec.hpp"

namespace trainsim {

struct RuleViolation {
  std::string key;       // run key that holds the value: "devices", "precision"
  std::string problem;
  std::string value;     // the offending value as text
  std::string expected;  // what would be valid
};

// Device count and precision against the platform's limits and peaks.
[[nodiscard]] std::optional<RuleViolation> platform_fit_violation(const RunSpec& run);
// Devices fill whole domains of every tier (nodes, racks, supernodes) they span more than one of.
[[nodiscard]] std::optional<RuleViolation> whole_domains_violation(const RunSpec& run);

}  // namespace trainsim
