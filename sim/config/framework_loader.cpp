// workloads/frameworks/*.yaml, or a run's `framework:` key -> FrameworkSpec.
#include "sim/config/framework_loader.hpp"

#include "sim/config/loader.hpp"
#include "sim/config/plausible_ranges.hpp"
#include "sim/config/spec_parsers.hpp"
#include "sim/config/yaml_reader.hpp"

namespace trainsim {
namespace {

const EnumNames<PartitionMethod>& partition_names() {
  static const EnumNames<PartitionMethod> names = {{"uniform", PartitionMethod::kUniform},
                                                   {"embedding_counted", PartitionMethod::kEmbeddingCounted},
                                                   {"parameters", PartitionMethod::kParameters}};
  return names;
}

void read_host(MapReader& r, HostCosts* h) {
  auto m = r.map("host", Need::kOptional, {"launch", "pass", "pipeline_instruction", "launch_blocking", "cuda_graphs"});
  if (!m) return;
  m->read_quantity("launch", &h->launch, Quantity::kTime, Need::kOptional, host_time_range());
  m->read_quantity("pass", &h->pass, Quantity::kTime, Need::kOptional, host_time_range());
  m->read_quantity("pipeline_instruction", &h->pipeline_instruction, Quantity::kTime, Need::kOptional,
                   host_time_range());
  m->read_bool("launch_blocking", &h->launch_blocking, Need::kOptional);
  m->read_bool("cuda_graphs", &h->cuda_graphs, Need::kOptional);
}

void read_memory(MapReader& r, FrameworkMemory* mem) {
  auto m = r.map("memory", Need::kOptional, {"context", "workspace", "allocator_reserve", "fp32_grad_partition", "keeps_stage_outputs"});
  if (!m) return;
  m->read_quantity("context", &mem->context, Quantity::kBytes, Need::kOptional, framework_overhead_range());
  m->read_quantity("workspace", &mem->workspace, Quantity::kBytes, Need::kOptional, framework_overhead_range());
  m->read_number("allocator_reserve", &mem->allocator_reserve, Need::kOptional, allocator_reserve_range());
  m->read_bool("fp32_grad_partition", &mem->fp32_grad_partition, Need::kOptional);
  m->read_bool("keeps_stage_outputs", &mem->keeps_stage_outputs, Need::kOptional);
}

void read_moe(MapReader& r, FrameworkMoe* moe) {
  auto m = r.map("moe", Need::kOptional, {"dispatch_sync", "grouped_gemm"});
  if (!m) return;
  m->read_bool("dispatch_sync", &moe->dispatch_sync, Need::kOptional);
  static const EnumNames<bool> grouped_gemm = {{"per_expert", true}, {"grouped", false}};
  m->read_enum("grouped_gemm", &moe->per_expert_gemms, Need::kOptional, grouped_gemm);
}

// The keys of a framework document, read onto `spec` (absent keys keep its values, so a run's
// map can change a few keys of its base preset).
void read_framework_keys(MapReader& r, FrameworkSpec* spec) {
  r.read_string("description", &spec->description, Need::kOptional, true);
  read_host(r, &spec->host);
  r.read_enum("partition", &spec->partition, Need::kOptional, partition_names());
  read_memory(r, &spec->memory);
  read_moe(r, &spec->moe);
}

FrameworkSpec load_framework_file(const std::filesystem::path& file, const std::vector<Override>& overrides) {
  YamlSource source(file.string());
  YAML::Node root = load_yaml_file(file);
  apply_overrides(root, overrides, source);
  MapReader r(source, root, "", {"name", "description", "host", "partition", "memory", "moe"});
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
  MapReader r(source, node, "framework", {"base", "name", "description", "host", "partition", "memory", "moe"});
  FrameworkSpec spec;
  std::string base_ref;
  if (r.read_string("base", &base_ref, Need::kOptional))
    spec = load_framework_file(
        resolve_reference(base_ref, PresetKind::kFramework, base, source.where("framework.base"), "framework.base"), {});
  spec.name = base_ref.empty() ? "custom" : base_ref + " (modified)";
  r.read_string("name", &spec.name, Need::kOptional);
  read_framework_keys(r, &spec);
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
