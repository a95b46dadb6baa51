// Typed parsing of one YAML tree into a spec, and loading of a spec file with overrides.
// Internal to sim/config; the public entry points are in loader.hpp.
#pragma once
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/config/overrides.hpp"
#include "sim/config/platform_spec.hpp"
#include "sim/config/presets.hpp"
#include "sim/config/run_spec.hpp"
#include "sim/config/yaml_source.hpp"

namespace trainsim {

// Parse and validate a whole document; defaults are filled in (kv_heads, head_dim, ...).
[[nodiscard]] ModelSpec parse_model(YamlSource& source, const YAML::Node& root);
[[nodiscard]] PlatformSpec parse_platform(YamlSource& source, const YAML::Node& root);

// The run's own keys; `model` and `platform` are left empty and their references returned.
struct RunReferences {
  std::string model;
  std::string platform;
};
[[nodiscard]] RunSpec parse_run(YamlSource& source, const YAML::Node& root, RunReferences* refs);

// Reads `file`, applies `overrides` (paths relative to this file's tree), parses.
[[nodiscard]] ModelSpec load_model_file(const std::filesystem::path& file, const std::vector<Override>& overrides);
[[nodiscard]] PlatformSpec load_platform_file(const std::filesystem::path& file,
                                              const std::vector<Override>& overrides);
// A Hugging Face config.json as a model (sim/config/hf_model_loader.cpp), then `overrides`.
[[nodiscard]] ModelSpec load_hf_model_file(const std::filesystem::path& file, const std::vector<Override>& overrides);
// The config.json a run's `model: hf:PATH` names: PATH relative to `base_dir` first, then as given;
// a folder stands for its config.json. A ConfigError at `where` when there is none.
[[nodiscard]] std::filesystem::path resolve_hf_config(const std::string& path, const std::filesystem::path& base_dir,
                                                      const Location& where);

// The file a `model:`/`platform:` reference names: a path (see looks_like_path), relative ones
// resolved against `base_dir`, or a preset name. A missing file or unknown preset is a
// ConfigError at `where`/`key_path`, listing the preset names there are.
[[nodiscard]] std::filesystem::path resolve_reference(const std::string& reference, PresetKind kind,
                                                      const std::filesystem::path& base_dir, const Location& where,
                                                      const std::string& key_path);

}  // namespace trainsim
