// Command-line overrides (`--set key.path=value`), applied to the parsed YAML tree before
// typed parsing, so an overridden value goes through exactly the same checks as one written
// in the file. Errors about an overridden value name the override instead of a line.
// Internal to sim/config.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "sim/config/yaml_source.hpp"

namespace trainsim {

struct Override {
  std::string text;   // as the user wrote it, for messages: "--set strategy.tp=4"
  std::string path;   // key path inside the tree it applies to: "strategy.tp"
  std::string value;  // "4"; "{...}" and "[...]" are read as YAML flow collections
};

// Parses "key.path=value". No '=', an empty path or an empty segment ("a..b") is a ConfigError.
[[nodiscard]] Override parse_override(const std::string& arg);
[[nodiscard]] std::vector<Override> parse_overrides(const std::vector<std::string>& args);

// The overrides whose path starts with "<prefix>." with that prefix removed ("model.layers"
// -> "layers"); with `exclude` true, the others (the ones that stay on the run itself).
[[nodiscard]] std::vector<Override> select_overrides(const std::vector<Override>& all, const std::string& prefix,
                                                     bool exclude = false);
[[nodiscard]] std::vector<Override> run_level_overrides(const std::vector<Override>& all);

// Writes each override into `root`, creating the maps on its path that do not exist yet (the
// typed reader then rejects keys that are not valid there, listing the valid ones). A path
// through a plain value, or a list index out of range, is a ConfigError naming the segment.
// Registers every written path with `source`, so errors there name the override.
void apply_overrides(YAML::Node& root, const std::vector<Override>& overrides, YamlSource& source);

}  // namespace trainsim
