// YAML → specs. The only place in trainsim that sees yaml-cpp. Every error is a ConfigError
// naming the file, line, key path and value, and what would be valid.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/config/platform_spec.hpp"
#include "sim/config/run_spec.hpp"

namespace trainsim {

// Directory holding platforms/ and workloads/: $TRAINSIM_DATA_DIR if set, else the source tree
// the binary was built from.
[[nodiscard]] std::filesystem::path data_dir();

// `name_or_path` is either a path to a YAML file (contains '/' or ends in .yaml) or a preset
// name resolved as <data_dir>/platforms/<name>.yaml (resp. workloads/models/<name>.yaml).
[[nodiscard]] PlatformSpec load_platform(const std::string& name_or_path);
// A model also as "hf:PATH": a Hugging Face config.json (load_hf_model), as a run's `model:` takes it.
[[nodiscard]] ModelSpec load_model(const std::string& name_or_path);
// A Hugging Face config.json (model_type llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe,
// deepseek_v3, gpt_oss) as a model; ModelSpec::notes lists what it says that the schema cannot
// express. A run names one as `model: hf:PATH`.
[[nodiscard]] ModelSpec load_hf_model(const std::filesystem::path& config_json);
// The PATH of a model reference written "hf:PATH"; nullopt for a preset name or a model YAML.
[[nodiscard]] std::optional<std::string> hf_reference_path(const std::string& reference);
// A framework preset (<data_dir>/workloads/frameworks/<name>.yaml) or a framework YAML file.
[[nodiscard]] FrameworkSpec load_framework(const std::string& name_or_path);
// Loads a run and the model and platform it names (relative paths resolve against the run
// file's folder first, then presets), applies `overrides` ("key.path=value", e.g.
// "strategy.tp=4" or "platform.tiers.1.bandwidth=100GBps"), then checks every rule that
// involves only the inputs (degrees multiply to devices, tp divides heads and kv_heads, ...).
// With StrategyRules::kSkip the strategy is only parsed (each key's type and range), not checked
// against the model and devices: for a run whose strategy a search replaces (`sweep --search`),
// where only the model, platform, devices, batch and their own rules matter.
enum class StrategyRules { kCheck, kSkip };
[[nodiscard]] RunSpec load_run(const std::filesystem::path& file,
                               const std::vector<std::string>& overrides = {},
                               StrategyRules strategy_rules = StrategyRules::kCheck);
// The same for a run held in memory (a run another command composed, e.g. `search`'s base run):
// `name` stands for the file in errors; references resolve against `base` first, then presets.
[[nodiscard]] RunSpec load_run_text(const std::string& text, const std::string& name,
                                    const std::filesystem::path& base, const std::vector<std::string>& overrides = {});

// Preset names found under data_dir(), sorted, with their description line.
struct PresetInfo {
  std::string name;
  std::string description;
  std::filesystem::path path;
};
[[nodiscard]] std::vector<PresetInfo> list_platform_presets();
[[nodiscard]] std::vector<PresetInfo> list_model_presets();
[[nodiscard]] std::vector<PresetInfo> list_run_presets();
[[nodiscard]] std::vector<PresetInfo> list_framework_presets();

}  // namespace trainsim
