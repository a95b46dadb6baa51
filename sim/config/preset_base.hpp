// A preset that starts from another preset of its kind: `base:` names it (a preset name or a
// path), `set:` changes keys of it by the same paths `--set` takes, and the file gives its own
// `name` and `description`. A what-if platform is then a few lines:
//
//   base: dgx-h100-superpod
//   name: h100-ib-800g
//   description: "DGX H100 SuperPOD with 800 Gb/s InfiniBand"
//   set: {tiers.1.bandwidth: 800Gbps, accelerator.memory_capacity: 141GiB}
//
// A base may itself have a base (at most kMaxBaseDepth files deep; a loop hits that bound).
// Internal to sim/config.
#pragma once
#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "sim/config/presets.hpp"
#include "sim/config/yaml_source.hpp"

namespace trainsim {

inline constexpr int kMaxBaseDepth = 8;

// When `root` has `base:`, the base preset's tree with this document's name, description and
// `set:` entries written into it (each recorded in `source`, so an error in one names this file,
// its line and the key); else `root` unchanged. Beside `base:` only name, description and set
// are valid keys. Relative base paths resolve against `dir` first, then the presets of `kind`.
[[nodiscard]] YAML::Node resolve_preset_base(YamlSource& source, const YAML::Node& root, PresetKind kind,
                                             const std::filesystem::path& dir, int depth = 0);

}  // namespace trainsim
