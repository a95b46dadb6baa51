// A platform's `uncalibrated:` list: the key paths of parameters that no measurement supports
// (a preset written from vendor specifications, efficiencies carried over from another card).
// `check` and `simulate` print them with their values, so a prediction on unseen hardware says
// which of its inputs are guesses. Internal to sim/config.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "sim/config/platform_spec.hpp"
#include "sim/config/yaml_source.hpp"

namespace trainsim {

// Reads root["uncalibrated"] (absent: none). Each entry must be a dotted key path that names a
// value given in the document (after `base:`/`set:`/--set), e.g. accelerator.gemm_efficiency
// or tiers.1.efficiency, listed once; anything else fails at the entry.
[[nodiscard]] std::vector<UncalibratedParameter> read_uncalibrated(const YamlSource& source, const YAML::Node& root);

}  // namespace trainsim
