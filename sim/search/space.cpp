#include "sim/search/space.hpp"

#include <algorithm>
#include <cstdlib>

#include "sim/config/run_writer.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text_list.hpp"
#include "sim/strategy/mesh.hpp"
#include "sim/strategy/schedule_shape.hpp"

namespace trainsim {
namespace {

enum class KnobKind { kDegree, kZero, kLayers, kBool, kRecompute, kOffload, kSchedule, kMeshOrder };

struct Knob {
  const char* name;
  KnobKind kind;
};

const std::vector<Knob>& knob_table() {
  static const std::vector<Knob> knobs = {
      {"tp", KnobKind::kDegree},          {"pp", KnobKind::kDegree},
      {"dp", KnobKind::kDegree},          {"cp", KnobKind::kDegree},
      {"ep", KnobKind::kDegree},          {"micro_batch", KnobKind::kDegree},
      {"virtual_stages", KnobKind::kDegree}, {"first_stage_layers", KnobKind::kLayers},
      {"last_stage_layers", KnobKind::kLayers}, {"schedule", KnobKind::kSchedule},
      {"sequence_parallel", KnobKind::kBool}, {"zero_stage", KnobKind::kZero},
      {"recompute", KnobKind::kRecompute}, {"recompute_layers", KnobKind::kLayers},
      {"offload", KnobKind::kOffload},    {"overlap.dp_grad_reduce", KnobKind::kBool},
      {"overlap.zero_param_gather", KnobKind::kBool}, {"overlap.tp_comm", KnobKind::kBool},
      {"overlap.pp_comm", KnobKind::kBool}, {"mesh_order", KnobKind::kMeshOrder}};
  return knobs;
}

bool parse_whole(const std::string& text, long min, long max, long* out) {
  if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), ::isdigit)) return false;
  *out = std::strtol(text.c_str(), nullptr, 10);
  return *out >= min && *out <= max;
}

// Empty when `value` is one of `names`, else the names joined.
std::string one_of(const std::string& value, const std::vector<std::string>& names) {
  return std::count(names.begin(), names.end(), value) ? "" : join_text(names);
}

// Empty when `value` suits the knob, else what would be valid.
std::string invalid_value(KnobKind kind, const std::string& value) {
  long n = 0;
  switch (kind) {
    case KnobKind::kDegree: return parse_whole(value, 1, 1 << 24, &n) ? "" : "a whole number >= 1";
    case KnobKind::kZero: return parse_whole(value, 0, 3, &n) ? "" : "0, 1, 2 or 3";
    case KnobKind::kLayers: return parse_whole(value, 0, 1 << 24, &n) ? "" : "a whole number >= 0 (0 = every layer)";
    case KnobKind::kBool: return value == "true" || value == "false" ? "" : "true or false";
    case KnobKind::kRecompute:
      return one_of(value, {recompute_name(Recompute::kNone), recompute_name(Recompute::kSelective),
                            recompute_name(Recompute::kFull)});
    case KnobKind::kOffload: return one_of(value, {offload_name(Offload::kNone), offload_name(Offload::kOptimizer)});
    case KnobKind::kSchedule: {
      std::vector<std::string> names;
      for (const ScheduleClosedForm& f : schedule_closed_forms()) names.push_back(f.name);
      return one_of(value, names);
    }
    case KnobKind::kMeshOrder:
      try {
        (void)parse_mesh_order(value);
        return "";
      } catch (const UserError&) {
        return "'all', or a dash-separated order of tp, cp, ep, dp, pp such as tp-cp-ep-dp-pp";
      }
  }
  return "?";
}

const Knob& find_knob(const std::string& name, const std::string& arg) {
  std::vector<std::string> names;
  for (const Knob& k : knob_table()) {
    if (name == k.name) return k;
    names.emplace_back(k.name);
  }
  throw UserError(arg + ": unknown search knob '" + name + "'; valid: " + join_text(names));
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t at; (at = text.find(sep, start)) != std::string::npos; start = at + 1) out.push_back(text.substr(start, at - start));
  out.push_back(text.substr(start));
  return out;
}

void apply_arg(SearchSpace& space, const std::string& option, const std::string& arg, bool single) {
  const std::string shown = "--" + option + " " + arg;
  const size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
    throw UserError(shown + ": expected KNOB=" + (single ? "VALUE" : "V1,V2,...") + ", e.g. tp=" + (single ? "8" : "4,8"));
  std::string key = arg.substr(0, eq);
  if (key.rfind("strategy.", 0) == 0) key = key.substr(9);
  const std::vector<std::string> values = split(arg.substr(eq + 1), ',');
  if (single && values.size() != 1) throw UserError(shown + ": --fix takes one value; use --space for several");
  space.restrict(find_knob(key, shown).name, values, option);
}

}  // namespace

const std::vector<std::string>& search_knobs() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Knob& k : knob_table()) n.emplace_back(k.name);
    return n;
  }();
  return names;
}

void SearchSpace::restrict(const std::string& knob, const std::vector<std::string>& values, const std::string& option) {
  const Knob& k = find_knob(knob, "--" + option + " " + knob);
  std::vector<std::string> kept;
  for (const std::string& v : values) {
    if (k.kind == KnobKind::kMeshOrder && v == "all") {
      for (const std::string& order : all_mesh_orders()) kept.push_back(order);
      continue;
    }
    const std::string valid = invalid_value(k.kind, v);
    if (!valid.empty())
      throw UserError("--" + option + " " + knob + ": '" + v + "' is not a value of " + knob + "; valid: " + valid);
    if (std::find(kept.begin(), kept.end(), v) == kept.end()) kept.push_back(v);
  }
  auto it = allowed_.find(knob);
  if (it == allowed_.end()) {
    allowed_[knob] = kept;
    return;
  }
  std::vector<std::string> both;  // a knob restricted twice keeps what both allow
  for (const std::string& v : it->second)
    if (std::find(kept.begin(), kept.end(), v) != kept.end()) both.push_back(v);
  if (both.empty()) throw UserError("--space/--fix " + knob + ": the restrictions given leave no value");
  it->second = both;
}

bool SearchSpace::admits(const std::string& knob, const std::string& value) const {
  auto it = allowed_.find(knob);
  return it == allowed_.end() || std::find(it->second.begin(), it->second.end(), value) != it->second.end();
}
bool SearchSpace::admits(const std::string& knob, int value) const { return admits(knob, std::to_string(value)); }
bool SearchSpace::admits(const std::string& knob, bool value) const { return admits(knob, std::string(value ? "true" : "false")); }

std::vector<std::string> SearchSpace::values_or(const std::string& knob, const std::vector<std::string>& defaults) const {
  auto it = allowed_.find(knob);
  return it == allowed_.end() ? defaults : it->second;
}

std::string SearchSpace::describe() const {
  std::vector<std::string> parts;
  for (const std::string& knob : search_knobs()) {
    auto it = allowed_.find(knob);
    if (it != allowed_.end()) parts.push_back(knob + "=" + join_text(it->second, ","));
  }
  return join_text(parts, "; ");
}

SearchSpace parse_search_space(const std::vector<std::string>& space_args, const std::vector<std::string>& fix_args) {
  SearchSpace space;
  for (const std::string& a : space_args) apply_arg(space, "space", a, false);
  for (const std::string& a : fix_args) apply_arg(space, "fix", a, true);
  return space;
}

std::vector<std::string> all_mesh_orders() {
  std::vector<std::string> dims = {"cp", "dp", "pp", "tp"};  // sorted: next_permutation visits all 24
  std::vector<std::string> out;
  do {
    std::string order;
    for (const std::string& d : dims) order += (order.empty() ? "" : "-") + d + (d == "cp" ? "-ep" : "");
    out.push_back(order);
  } while (std::next_permutation(dims.begin(), dims.end()));
  // Megatron-LM's default first, then the rest in lexicographic order of their dimensions.
  std::stable_partition(out.begin(), out.end(), [](const std::string& o) { return o == "tp-cp-ep-dp-pp"; });
  return out;
}

}  // namespace trainsim
