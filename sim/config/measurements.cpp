// validation/measurements.yaml -> MeasurementSet.
#include "sim/config/measurements.hpp"

#include <map>
#include <set>

#include "sim/config/plausible_ranges.hpp"
#include "sim/config/ranking_groups.hpp"
#include "sim/config/yaml_reader.hpp"
#include "sim/config/yaml_scalars.hpp"
#include "sim/core/error.hpp"

namespace trainsim {
namespace {

const EnumNames<Split>& split_names() {
  static const EnumNames<Split> names = {{"calibrate", Split::kCalibrate}, {"check", Split::kCheck}};
  return names;
}

const EnumNames<MeasuredMetric>& metric_names() {
  static const EnumNames<MeasuredMetric> names = {{"tflops_per_device", MeasuredMetric::kTflopsPerDevice},
                                                  {"iteration_s", MeasuredMetric::kIterationSeconds},
                                                  {"tokens_per_s_per_device", MeasuredMetric::kTokensPerSecondPerDevice}};
  return names;
}

const EnumNames<FlopsFormula>& formula_names() {
  static const EnumNames<FlopsFormula> names = {{"none", FlopsFormula::kNone},
                                                {"megatron-full-recompute", FlopsFormula::kMegatronFullRecompute},
                                                {"megatron-no-recompute", FlopsFormula::kMegatronNoRecompute},
                                                {"megatron-lm", FlopsFormula::kMegatronLm}};
  return names;
}

// The formulas a TFLOP/s figure may name (every one but none), for the error message.
std::vector<std::string> formula_texts() {
  std::vector<std::string> out;
  for (const auto& [text, formula] : formula_names())
    if (formula != FlopsFormula::kNone) out.emplace_back(text);
  return out;
}

const std::vector<std::string>& entry_keys() {
  static const std::vector<std::string> keys = {"id",    "run",  "split",  "hardware", "metric",
                                                "value", "flops_formula", "mfu", "source", "notes",
                                                "group", "peak_memory"};
  return keys;
}

// A TFLOP/s figure means nothing without the formula that counted the FLOPs; seconds and
// tokens/s need none, and a formula given with them would be silently ignored.
void check_formula(MapReader& r, const Measurement& m) {
  const bool needs = m.metric == MeasuredMetric::kTflopsPerDevice;
  if (needs && m.flops_formula == FlopsFormula::kNone) {
    r.fail("flops_formula", "metric tflops_per_device needs the formula the source counted FLOPs with",
           r.has("flops_formula") ? "none" : "", join_names(formula_texts()));
  }
  if (!needs && m.flops_formula != FlopsFormula::kNone) {
    r.fail("flops_formula", std::string("metric ") + metric_name(m.metric) + " does not use a FLOP formula",
           flops_formula_name(m.flops_formula), "none (or leave the key out)");
  }
}

Measurement read_entry(YamlSource& source, const YAML::Node& node, const std::string& path,
                       const std::filesystem::path& base) {
  MapReader r(source, node, path, entry_keys());
  Measurement m;
  m.line = node.Mark().line + 1;
  r.read_string("id", &m.id, Need::kRequired);
  std::string run;
  r.read_string("run", &run, Need::kRequired);
  m.run = std::filesystem::path(run).is_absolute() ? std::filesystem::path(run) : base / run;
  if (!std::filesystem::is_regular_file(m.run))
    r.fail("run", "names no file (paths are relative to the measurements file's folder)", run,
           "a run YAML file, e.g. runs/" + m.id + ".yaml");
  r.read_enum("split", &m.split, Need::kRequired, split_names());
  r.read_string("hardware", &m.hardware, Need::kRequired);
  r.read_enum("metric", &m.metric, Need::kRequired, metric_names());
  r.read_number("value", &m.value, Need::kRequired, positive());
  r.read_enum("flops_formula", &m.flops_formula, Need::kOptional, formula_names());
  check_formula(r, m);
  r.read_number("mfu", &m.mfu, Need::kOptional, unit_fraction());
  r.read_string("source", &m.source, Need::kRequired);
  r.read_string("notes", &m.notes, Need::kOptional, true);
  r.read_string("group", &m.group, Need::kOptional);
  r.read_quantity("peak_memory", &m.peak_memory, Quantity::kBytes, Need::kOptional, device_memory_range());
  return m;
}

}  // namespace

const char* split_name(Split s) { return yaml_name(split_names(), s); }
const char* metric_name(MeasuredMetric m) { return yaml_name(metric_names(), m); }
const char* flops_formula_name(FlopsFormula f) { return yaml_name(formula_names(), f); }

MeasurementSet load_measurements(const std::filesystem::path& file) {
  YamlSource source(file.string());
  const YAML::Node root = load_yaml_file(file);
  MapReader r(source, root, "", {"description", "measurements"});
  MeasurementSet set;
  set.file = file.string();
  r.read_string("description", &set.description, Need::kOptional, true);
  const std::vector<YAML::Node> entries = r.list("measurements", Need::kRequired);
  if (entries.empty())
    r.fail("measurements", "needs at least one entry", "an empty list", "a list of measurements (id, run, ...)");
  std::set<std::string> ids;
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::string path = "measurements." + std::to_string(i);
    set.rows.push_back(read_entry(source, entries[i], path, file.parent_path()));
    if (!ids.insert(set.rows.back().id).second) {
      MapReader entry(source, entries[i], path, entry_keys());
      entry.fail("id", "is used by an earlier entry; ids must be unique", set.rows.back().id, "a new id");
    }
  }
  (void)ranking_groups(set);  // a group of one row, or mixing splits or hardware, is bad input
  return set;
}

MeasurementSet load_measurements(const std::vector<std::filesystem::path>& files) {
  MeasurementSet all;
  std::map<std::string, std::string> file_of_id, file_of_group;
  for (const auto& file : files) {
    MeasurementSet one = load_measurements(file);
    all.file += (all.file.empty() ? "" : ", ") + one.file;
    if (!one.description.empty()) all.description += (all.description.empty() ? "" : "; ") + one.description;
    std::set<std::string> groups_here;
    for (auto& m : one.rows) {
      const auto [it, added] = file_of_id.emplace(m.id, one.file);
      if (!added)
        throw ConfigError(one.file, m.line, "measurements.id",
                          "is also an id in " + it->second + "; ids must be unique across the files given", m.id,
                          "an id no other file uses");
      if (!m.group.empty() && groups_here.insert(m.group).second) {
        const auto [g, new_group] = file_of_group.emplace(m.group, one.file);
        if (!new_group)
          throw ConfigError(one.file, m.line, "measurements.group",
                            "is also a group in " + g->second + "; a ranking group lies within one file", m.group,
                            "a group name no other file uses");
      }
      all.rows.push_back(std::move(m));
    }
  }
  return all;
}

}  // namespace trainsim
