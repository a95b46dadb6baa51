// workloads/*.yaml -> RunSpec, with the model and platform it names and any --set overrides.
#include <algorithm>

#include "sim/collective/plan.hpp"
#include "sim/config/enum_names.hpp"
#include "sim/config/framework_loader.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/plausible_ranges.hpp"
#include "sim/config/run_keys.hpp"
#include "sim/config/run_rules.hpp"
#include "sim/config/run_writer.hpp"
#include "sim/config/spec_parsers.hpp"
#include "sim/config/yaml_reader.hpp"
#include "sim/core/error.hpp"

namespace trainsim {
namespace {

const std::vector<std::string> kDimNames = {"tp", "cp", "ep", "dp", "pp"};

// mesh_order names each dimension once, fastest-varying first: "tp-cp-ep-dp-pp".
void check_mesh_order(MapReader& r, const std::string& order) {
  std::vector<std::string> seen;
  size_t start = 0;
  while (start <= order.size()) {
    const size_t dash = order.find('-', start);
    seen.push_back(order.substr(start, dash == std::string::npos ? std::string::npos : dash - start));
    if (dash == std::string::npos) break;
    start = dash + 1;
  }
  std::vector<std::string> sorted_seen = seen, sorted_dims = kDimNames;
  std::sort(sorted_seen.begin(), sorted_seen.end());
  std::sort(sorted_dims.begin(), sorted_dims.end());
  if (sorted_seen != sorted_dims) {
    r.fail("mesh_order", "must name each of tp, cp, ep, dp, pp exactly once, joined by '-'", order,
           "an order such as tp-cp-ep-dp-pp (fastest-varying first)");
  }
}

// strategy.stage_layers: a list of layer counts, one per stage (their sum and count are checked
// with the other split rules, once the model is known).
void read_stage_layers(MapReader& r, std::vector<int>* out) {
  const std::vector<YAML::Node> items = r.list("stage_layers", Need::kOptional);
  if (items.size() > static_cast<size_t>(kMaxDevices))
    r.fail("stage_layers", "lists more stages than devices can hold", std::to_string(items.size()) + " entries",
           "at most one entry per pipeline stage");
  for (size_t i = 0; i < items.size(); ++i) {
    int n = 0;
    if (!items[i].IsScalar() || !YAML::convert<int>::decode(items[i], n) || n < 1)
      r.fail("stage_layers", "entry " + std::to_string(i) + " is not a layer count", r.text_of("stage_layers"),
             "a list of integers >= 1, one per stage, e.g. [7, 8, 8, 7]");
    out->push_back(n);
  }
}

// strategy.keep_in_domain: dimensions named once each, e.g. [tp, ep] (the groups are checked
// against the platform with the other rules, once the platform is known).
void read_keep_in_domain(MapReader& r, std::vector<std::string>* out) {
  const std::string expected = "a list naming each of tp, cp, ep, dp, pp at most once, e.g. [tp, ep]";
  for (const YAML::Node& item : r.list("keep_in_domain", Need::kOptional)) {
    const std::string name = item.IsScalar() ? item.Scalar() : describe_node(item);
    if (std::find(kDimNames.begin(), kDimNames.end(), name) == kDimNames.end())
      r.fail("keep_in_domain", "'" + name + "' is not a parallel dimension", r.text_of("keep_in_domain"), expected);
    if (std::find(out->begin(), out->end(), name) != out->end())
      r.fail("keep_in_domain", "names " + name + " twice", r.text_of("keep_in_domain"), expected);
    out->push_back(name);
  }
}

// strategy.recompute_modules: what selective recompute re-runs, each module named once; only with
// recompute: selective (Megatron-Core ignores --recompute-modules otherwise: refused here instead).
void read_recompute_modules(MapReader& r, StrategySpec* st) {
  if (!r.has("recompute_modules")) return;
  const std::string expected = "a list naming each of core_attn, layernorm, moe_act, mlp, mla_up_proj at most once, e.g. [core_attn, moe_act]";
  if (st->recompute != Recompute::kSelective)
    r.fail("recompute_modules", "applies to selective recompute only, but strategy.recompute is " +
           std::string(recompute_name(st->recompute)), r.text_of("recompute_modules"),
           "recompute: selective, or no recompute_modules");
  RecomputeModules m;
  m.core_attn = false;
  std::vector<std::string> seen;
  for (const YAML::Node& item : r.list("recompute_modules", Need::kOptional)) {
    const std::string name = item.IsScalar() ? item.Scalar() : describe_node(item);
    bool* flag = nullptr;
    for (const auto& [known, member] : recompute_module_names())
      if (name == known) flag = &(m.*member);
    if (!flag) r.fail("recompute_modules", "'" + name + "' is not a module trainsim recomputes", r.text_of("recompute_modules"), expected);
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      r.fail("recompute_modules", "names " + name + " twice", r.text_of("recompute_modules"), expected);
    seen.push_back(name);
    *flag = true;
  }
  st->recompute_modules = m;
}

void read_strategy(MapReader& run, StrategySpec* st) {
  auto r = run.map("strategy", Need::kOptional, strategy_keys().keys());
  if (!r) return;
  strategy_keys().read(*r, *st, nullptr);
  read_stage_layers(*r, &st->stage_layers);
  if (r->has("mesh_order")) check_mesh_order(*r, st->mesh_order);
  read_keep_in_domain(*r, &st->keep_in_domain);
  read_recompute_modules(*r, st);
  if (auto o = r->map("overlap", Need::kOptional, overlap_keys().keys())) overlap_keys().read(*o, st->overlap, nullptr);
}

// The collectives the run's strategy makes each dimension's group run (as sim/graph emits them).
std::vector<CollectiveKind> kinds_run_by(const std::string& dim, const StrategySpec& st) {
  using K = CollectiveKind;
  if (dim == "tp") return st.sequence_parallel ? std::vector<K>{K::kReduceScatter, K::kAllGather} : std::vector<K>{K::kAllReduce};
  if (dim == "dp") return st.zero_stage == 0 ? std::vector<K>{K::kAllReduce} : std::vector<K>{K::kReduceScatter, K::kAllGather};
  if (dim == "cp") return {K::kAllGather, K::kReduceScatter};
  if (dim == "ep") return {K::kAllToAll};
  return {};
}

// An algorithm name must be registered and run every collective the dimension's group uses, so
// that a bad name stops at load time (the replay would otherwise meet it inside an actor).
void check_collective(const MapReader& r, const std::string& dim, const std::string& name, const StrategySpec& st) {
  const std::vector<CollectiveKind> kinds = kinds_run_by(dim, st);
  auto runs_all = [&](const CollectiveAlgorithm& a) {
    return std::all_of(kinds.begin(), kinds.end(), [&](CollectiveKind k) { return supports(a, k); });
  };
  std::string valid;
  const CollectiveAlgorithm* found = nullptr;
  for (const CollectiveAlgorithm& a : collective_algorithms()) {
    if (runs_all(a)) valid += (valid.empty() ? "" : ", ") + a.name;
    if (a.name == name) found = &a;
  }
  if (found == nullptr) r.fail(dim, "unknown collective algorithm", name, valid);
  if (!runs_all(*found)) r.fail(dim, "cannot run every collective this strategy gives the " + dim + " group", name, valid);
}

void read_collectives(MapReader& run, const StrategySpec& st, std::map<std::string, std::string>* out) {
  auto r = run.map("collectives", Need::kOptional, kDimNames);
  if (!r) return;
  for (const auto& dim : kDimNames) {
    std::string algorithm;
    if (!r->read_string(dim, &algorithm, Need::kOptional)) continue;
    check_collective(*r, dim, algorithm, st);
    (*out)[dim] = algorithm;
  }
}

// `fp8:` only with an 8-bit precision; mxfp8 has the mxfp8 recipe and fp8 the other two.
void read_fp8(MapReader& r, RunSpec* run) {
  run->fp8.recipe = run->precision == Precision::kMxfp8 ? Fp8Recipe::kMxfp8 : Fp8Recipe::kDelayed;
  auto f = r.map("fp8", Need::kOptional, fp8_keys().keys());
  if (!f) return;
  if (!is_fp8(run->precision))
    r.fail("fp8", std::string("applies only to runs in fp8 or mxfp8, and this run's precision is ") +
                      to_string(run->precision), "a map", "remove it, or set precision: fp8");
  fp8_keys().read(*f, run->fp8, nullptr);
  const bool mx = run->precision == Precision::kMxfp8;
  if (mx != (run->fp8.recipe == Fp8Recipe::kMxfp8))
    f->fail("recipe", std::string("does not match precision ") + to_string(run->precision), f->text_of("recipe"),
            mx ? "mxfp8 (the only recipe of precision mxfp8)" : "delayed or current (mxfp8 needs precision: mxfp8)");
}

void read_moe_routing(MapReader& r, MoeRouting* moe) {
  auto m = r.map("moe", Need::kOptional, moe_routing_keys().keys());
  if (!m) return;
  moe_routing_keys().read(*m, *moe, nullptr);
  if (moe->pad_to_capacity && moe->capacity_factor <= 0)
    m->fail("pad_to_capacity", "pads each expert to its capacity, and the run gives no moe.capacity_factor", "true",
            "false, or a capacity_factor such as 1.25 beside it");
}

}  // namespace

RunSpec parse_run(YamlSource& source, const YAML::Node& root, RunReferences* refs) {
  MapReader r(source, root, "", run_keys().keys());
  RunSpec run;
  run.source_file = source.file();
  r.read_string("model", &refs->model, Need::kRequired);
  r.read_string("platform", &refs->platform, Need::kRequired);
  run_keys().read(r, run, nullptr);
  read_fp8(r, &run);
  read_strategy(r, &run.strategy);
  read_collectives(r, run.strategy, &run.collectives);
  if (auto d = r.map("dropout", Need::kOptional, dropout_keys().keys())) dropout_keys().read(*d, run.dropout, nullptr);
  read_moe_routing(r, &run.moe);
  return run;
}

namespace {

// `model:` names a preset, a model YAML, or (hf:PATH) a Hugging Face config.json.
ModelSpec load_run_model(const std::string& reference, const std::filesystem::path& base, const YamlSource& source,
                         const std::vector<Override>& overrides) {
  if (const auto hf = hf_reference_path(reference))
    return load_hf_model_file(resolve_hf_config(*hf, base, source.where("model")), overrides);
  return load_model_file(resolve_reference(reference, PresetKind::kModel, base, source.where("model"), "model"),
                         overrides);
}

// A parsed run document -> RunSpec: overrides, the run's keys, the model and platform it names
// (relative references resolve against `base` first), and the rules that involve only inputs.
RunSpec load_run_document(YamlSource& source, YAML::Node root, const std::filesystem::path& base,
                          const std::vector<std::string>& override_args, StrategyRules strategy_rules) {
  const std::vector<Override> overrides = parse_overrides(override_args);
  apply_overrides(root, select_overrides(run_level_overrides(overrides), "framework", true), source);
  RunReferences refs;
  RunSpec run = parse_run(source, root, &refs);
  run.framework = load_run_framework(source, root, base, select_overrides(overrides, "framework"));
  run.limit_overlap_to_framework();  // `check` prints what blocking launches leave
  run.model = load_run_model(refs.model, base, source, select_overrides(overrides, "model"));
  run.platform = load_platform_file(
      resolve_reference(refs.platform, PresetKind::kPlatform, base, source.where("platform"), "platform"),
      select_overrides(overrides, "platform"));
  if (strategy_rules == StrategyRules::kCheck) check_run_rules(run, source);
  else check_strategy_free_rules(run, source);
  return run;
}

}  // namespace

RunSpec load_run(const std::filesystem::path& file, const std::vector<std::string>& override_args,
                 StrategyRules strategy_rules) {
  YamlSource source(file.string());
  return load_run_document(source, load_yaml_file(file), file.parent_path(), override_args, strategy_rules);
}

RunSpec load_run_text(const std::string& text, const std::string& name, const std::filesystem::path& base,
                      const std::vector<std::string>& override_args) {
  YamlSource source(name);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(name, e.mark.line + 1, "(syntax)", "invalid YAML: " + e.msg, "", "well-formed YAML");
  }
  return load_run_document(source, root, base, override_args, StrategyRules::kCheck);
}

}  // namespace trainsim
