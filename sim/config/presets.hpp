// Where presets live and how a `model:` / `platform:` reference becomes a file.
// Internal to sim/config; the public side (data_dir, list_*_presets) is in loader.hpp.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace trainsim {

enum class PresetKind { kPlatform, kModel, kRun, kFramework };

// <data_dir>/platforms, <data_dir>/workloads/models, <data_dir>/workloads, <data_dir>/workloads/frameworks.
[[nodiscard]] std::filesystem::path preset_folder(PresetKind kind);
// "platform", "model", "run", "framework" (for messages).
[[nodiscard]] const char* preset_kind_name(PresetKind kind);
// A reference is a path when it contains '/' or ends in ".yaml"; otherwise a preset name.
[[nodiscard]] bool looks_like_path(const std::string& reference);
// The preset file for `name`: <folder>/<name>.yaml, else the file whose `name:` is `name`.
[[nodiscard]] std::optional<std::filesystem::path> find_preset(PresetKind kind, const std::string& name);
// Names a reference may use (file names without .yaml), sorted, for "valid: ..." lists.
[[nodiscard]] std::vector<std::string> preset_file_names(PresetKind kind);

}  // namespace trainsim
