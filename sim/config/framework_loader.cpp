// workloads/frameworks/*.yaml, or a run's `framework:` key -> FrameworkSpec.
#include "sim/config/framework_loader.hpp"

#include <algorithm>

#include "sim/config/framework_keys.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/spec_parsers.hpp"
#include "sim/config/yaml_reader.hpp"

namespace trainsim {
namespace {

// The keys of a framework document, read onto `spec` (absent keys keep its values, so a run's
// map can change a few keys of its base preset).
void read_framework_keys(MapReader& r, FrameworkSpec* spec) {
  framework_keys().read(r, *spec, nullptr);
  if (auto host = r.map("host", Need::kOptional, host_keys().keys())) host_keys().read(*host, spec->host, nullptr);
  if (auto memory = r.map("memory", Need::kOptional, framework_memory_keys().keys()))
    framework_memory_keys().read(*memory, spec->memory, nullptr);
  if (auto moe = r.map("moe", Need::kOptional, framework_moe_keys().keys())) framework_moe_keys().read(*moe, spec->moe, nullptr);
}

// A preset file's keys: every framework key but `base` (only a run's map starts from a preset).
std::vector<std::string> preset_file_keys() {
  std::vector<std::string> keys = framework_keys().keys();
  keys.erase(std::find(keys.begin(), keys.end(), "base"));
  return keys;
}

FrameworkSpec load_framework_file(const std::filesystem::path& file, const std::vector<Override>& overrides) {
  YamlSource source(file.string());
  YAML::Node root = load_yaml_file(file);
  apply_overrides(root, overrides, source);
  MapReader r(source, root, "", preset_file_keys());
  FrameworkSpec spec;
  r.read_string("name", &spec.name, Need::kRequired);
  read_framework_keys(r, &spec);
  return spec;
}

}  // namespace

FrameworkSpec load_run_framework(YamlSource& source, YAML::Node run_root, const std::filesystem::path& base,
                                 const std::vector<Override>& overrides) {
  YAML::Node node = run_root["framework"];
  if (node.IsScalar()) {
    const std::string ref = node.Scalar();
    return load_framework_file(resolve_reference(ref, PresetKind::kFramework, base, source.where("framework"),
                                                 "framework"),
                               overrides);
  }
  if (!node.IsDefined() || node.IsNull()) {
    if (overrides.empty()) return FrameworkSpec{};
    node = YAML::Node(YAML::NodeType::Map);
  }
  // A map: an optional `base:` preset, then its own keys on top.
  apply_overrides(node, overrides, source);
  MapReader r(source, node, "framework", framework_keys().keys());
  FrameworkSpec spec;
  std::string base_ref;
  if (r.read_string("base", &base_ref, Need::kOptional))
    spec = load_framework_file(
        resolve_reference(base_ref, PresetKind::kFramework, base, source.where("framework.base"), "framework.base"), {});
  spec.name = base_ref.empty() ? "custom" : base_ref + " (modified)";
  read_framework_keys(r, &spec);  // its name, when it gives one
  return spec;
}

const char* to_string(PartitionMethod m) {
  for (const auto& [text, value] : partition_names())
    if (value == m) return text;
  return "uniform";
}

FrameworkSpec load_framework(const std::string& name_or_path) {
  const Location where{looks_like_path(name_or_path) ? name_or_path : preset_folder(PresetKind::kFramework).string(),
                       0};
  return load_framework_file(resolve_reference(name_or_path, PresetKind::kFramework, "", where, "framework"), {});
}

}  // namespace trainsim
