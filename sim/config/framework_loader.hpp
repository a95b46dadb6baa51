// A run's `framework:` key -> FrameworkSpec. Internal to sim/config (the public load_framework
// is in loader.hpp). The key is a preset name or file path, or a map whose optional `base:` names
// a preset and whose other keys replace that preset's; absent, the run models no framework.
#pragma once
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <vector>

#include "sim/config/framework_spec.hpp"
#include "sim/config/overrides.hpp"
#include "sim/config/yaml_source.hpp"

namespace trainsim {

// `overrides` are the run's `--set framework.*` ones with the prefix removed.
[[nodiscard]] FrameworkSpec load_run_framework(YamlSource& source, YAML::Node run_root,
                                               const std::filesystem::path& base,
                                               const std::vector<Override>& overrides);

}  // namespace trainsim
