#include "sim/search/groups.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "sim/config/divisors.hpp"
#include "sim/config/run_writer.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/schedule.hpp"
#include "sim/strategy/domain_groups.hpp"
#include "sim/strategy/mesh.hpp"
#include "sim/strategy/schedule_shape.hpp"
#include "sim/strategy/stage_layout.hpp"

namespace trainsim {
namespace {

std::vector<int> as_ints(const std::vector<long long>& v) { return std::vector<int>(v.begin(), v.end()); }

// Whether the schedule's own rules accept (p, m, v) (e.g. interleaving needs m % p == 0, and m v
// passes per stage stay within kMaxChunkPassesPerStage), asked once per combination.
class ScheduleRules {
 public:
  bool accepts(const std::string& name, int p, int m, int v) {
    const auto key = std::make_tuple(name, p, m, v);
    auto it = seen_.find(key);
    if (it != seen_.end()) return it->second;
    bool ok = true;
    try {
      find_schedule(name).check({p, m, v});
    } catch (const UserError&) {
      ok = false;
    }
    return seen_[key] = ok;
  }

 private:
  std::map<std::tuple<std::string, int, int, int>, bool> seen_;
};

// Layers of the group's fullest stage.
int most_stage_layers(const RunSpec& base, const ComputeGroup& g) {
  return fullest_stage_layer_count({base.model.layers, g.pp, g.virtual_stages, g.first_stage_layers, g.last_stage_layers});
}

// (first, last) stage layers for (pp, v): the even split (0, 0) where it works, else the most
// balanced uneven splits (each of first and last 0 or a multiple of v up to ceil(L/p), keeping those
// whose fullest stage holds fewest layers); exactly the values the space names when it names either.
std::vector<std::pair<int, int>> pipeline_splits(const RunSpec& base, const SearchSpace& space, int pp, int v) {
  const int layers = base.model.layers;
  auto valid = [&](int f, int l) { return split_problem(PipelineSplit{layers, pp, v, f, l}).empty(); };
  std::vector<int> firsts, lasts;
  const bool named = space.restricted("first_stage_layers") || space.restricted("last_stage_layers");
  if (named) {
    for (const std::string& f : space.values_or("first_stage_layers", {"0"})) firsts.push_back(std::stoi(f));
    for (const std::string& l : space.values_or("last_stage_layers", {"0"})) lasts.push_back(std::stoi(l));
  } else if (valid(0, 0)) {
    return {{0, 0}};
  } else if (pp >= 2) {
    for (int n = 0; n <= (layers + pp - 1) / pp + v - 1; n += v) firsts.push_back(n), lasts.push_back(n);
  }
  std::vector<std::pair<int, int>> out;
  int fullest = 0;  // unless named: only the most balanced splits (fewest layers on the fullest stage)
  for (int f : firsts)
    for (int l : lasts) {
      if (!(named || f > 0 || l > 0) || !valid(f, l)) continue;
      const int most = fullest_stage_layer_count({layers, pp, v, f, l});
      if (!named && !out.empty() && most > fullest) continue;
      if (!named && (out.empty() || most < fullest)) out.clear(), fullest = most;
      out.push_back({f, l});
    }
  return out;
}

std::vector<std::string> schedule_names() {
  std::vector<std::string> names;
  for (const ScheduleClosedForm& f : schedule_closed_forms()) names.push_back(f.name);
  return names;
}

// Pipeline layouts of one (tp, pp, dp, cp, ep): schedule, virtual stages, micro-batch.
// The SP and recompute variants of a group whose degrees, micro-batch and pipeline layout are set.
void add_compute_variants(const SearchSpace& space, ComputeGroup g, std::vector<ComputeGroup>& out) {
  // SP splits what TP splits: without TP it is off, whatever the space says.
  for (bool sp : {false, true}) {
    if (g.tp == 1 ? sp : !space.admits("sequence_parallel", sp)) continue;
    g.sequence_parallel = sp;
    for (Recompute r : {Recompute::kNone, Recompute::kSelective, Recompute::kFull}) {
      if (!space.admits("recompute", std::string(recompute_name(r)))) continue;
      g.recompute = r;
      out.push_back(g);
    }
  }
}

// Virtual stages a schedule may take on pp stages: 1, or for interleaving 2 up to one layer per chunk.
std::vector<int> virtual_stage_options(const std::string& schedule, int layers, int pp) {
  if (schedule != "interleaved") return {1};
  std::vector<int> vs;
  for (int v = 2; v <= (layers + pp - 1) / pp; ++v) vs.push_back(v);  // none when pp < 2: nothing to interleave
  return pp < 2 ? std::vector<int>{} : vs;
}

// Pipeline layouts of one (tp, pp, dp, cp, ep): micro-batch, schedule, virtual stages and split.
void add_pipeline_layouts(const RunSpec& base, const SearchSpace& space, ComputeGroup g, ScheduleRules& rules,
                          GroupCounts* counts, std::vector<ComputeGroup>& out) {
  for (int mb : as_ints(divisors(base.global_batch / g.dp))) {
    if (!space.admits("micro_batch", mb)) continue;
    g.micro_batch = mb;
    const int m = base.global_batch / (g.dp * mb);
    for (const std::string& schedule : space.values_or("schedule", schedule_names())) {
      for (int v : virtual_stage_options(schedule, base.model.layers, g.pp)) {
        if (!space.admits("virtual_stages", v)) continue;
        const std::vector<std::pair<int, int>> splits = pipeline_splits(base, space, g.pp, v);
        if (splits.empty()) continue;
        if (!rules.accepts(schedule, g.pp, m, v)) {
          counts->invalid += static_cast<long long>(splits.size());
          continue;
        }
        g.schedule = schedule, g.virtual_stages = v;
        for (const auto& [first, last] : splits) {
          g.first_stage_layers = first, g.last_stage_layers = last;
          if (static_cast<long long>(m) * most_stage_layers(base, g) > kMaxLayerPassesPerStage) {
            ++counts->invalid;  // the loader refuses it: the replay would expand too many layer passes
            continue;
          }
          add_compute_variants(space, g, out);
        }
      }
    }
  }
}

// The devices of one domain of the innermost tier (a node): the default bound on tp.
int node_size(const RunSpec& base) {
  const int inner = base.platform.tiers.empty() ? 0 : base.platform.tiers.front().domain_size;
  return inner > 0 ? inner : base.devices;
}

}  // namespace

std::vector<ComputeGroup> compute_groups(const RunSpec& base, const SearchSpace& space, GroupCounts* counts) {
  ScheduleRules rules;
  std::vector<ComputeGroup> out;
  const ModelSpec& model = base.model;
  for (int tp : as_ints(common_divisors(model.heads, model.kv_heads))) {
    if (base.devices % tp != 0 || !space.admits("tp", tp)) continue;
    if (!space.restricted("tp") && tp > node_size(base)) continue;
    for (int pp : as_ints(divisors(base.devices / tp))) {
      if (pp > model.layers || !space.admits("pp", pp)) continue;
      for (int cp : as_ints(divisors(base.devices / (tp * pp)))) {
        const int dp = base.devices / (tp * pp * cp);
        if (base.seq_len % cp != 0 || base.global_batch % dp != 0 || !space.admits("cp", cp) || !space.admits("dp", dp)) continue;
        const std::vector<long long> eps = model.is_moe() ? common_divisors(static_cast<long long>(dp) * cp, model.moe.experts)
                                                          : std::vector<long long>{1};
        for (int ep : as_ints(eps)) {
          if (!space.admits("ep", ep)) continue;
          ComputeGroup g;
          g.tp = tp, g.pp = pp, g.cp = cp, g.dp = dp, g.ep = ep;
          add_pipeline_layouts(base, space, g, rules, counts, out);
        }
      }
    }
  }
  return out;
}

namespace {

// The values of a boolean knob that matters in a group, or the one value it takes where it does not.
std::vector<bool> bool_values(const SearchSpace& space, const std::string& knob, bool matters, bool fallback) {
  std::vector<bool> out;
  for (bool b : {fallback, !fallback})
    if (space.admits(knob, b) && (matters || out.empty())) out.push_back(b);
  return out;
}

// Whether, with the group's degrees placed by `order`, every group of each dimension the run keeps
// in one domain (strategy.keep_in_domain) stays inside one innermost domain: the rule `check` applies.
bool keeps_domains(const ComputeGroup& g, const std::string& order, const RunSpec& base) {
  const std::vector<std::string>& keep = base.strategy.keep_in_domain;
  if (keep.empty() || base.platform.tiers.empty()) return true;
  StrategySpec s = base.strategy;
  s.tp = g.tp, s.pp = g.pp, s.dp = g.dp, s.cp = g.cp, s.ep = g.ep, s.mesh_order = order;
  return !first_kept_straddling_group(Mesh(s), keep, base.platform.tiers.front().domain_size);
}

// The mesh orders the space admits, one per distinct placement: dimensions of degree 1 place
// nothing, and ep rides with cp, so orders that agree on the rest build the same mesh.
std::vector<std::string> distinct_orders(const ComputeGroup& g, const SearchSpace& space) {
  const std::vector<std::string> defaults = {"tp-cp-ep-dp-pp", "tp-cp-ep-pp-dp"};
  std::vector<std::string> out;
  std::set<std::vector<Dim>> placements;
  for (const std::string& order : space.values_or("mesh_order", defaults)) {
    std::vector<Dim> placed;
    for (Dim d : parse_mesh_order(order)) {
      const int degree = d == Dim::kTp ? g.tp : d == Dim::kPp ? g.pp : d == Dim::kDp ? g.dp : g.cp;
      if (degree > 1) placed.push_back(d);
    }
    if (placements.insert(placed).second) out.push_back(order);
  }
  return out;
}

}  // namespace

std::vector<InnerChoice> inner_choices(const ComputeGroup& g, const SearchSpace& space, const RunSpec& base) {
  std::vector<int> zeros;
  for (int z = 0; z <= 3; ++z)
    if (space.admits("zero_stage", z) && (g.dp > 1 || zeros.empty())) zeros.push_back(z);
  // Optimizer offload only when asked for (it doubles the space, and is a choice for runs that do not
  // fit otherwise); its PCIe copies and host step need the platform's host figures.
  std::vector<Offload> offloads;
  for (Offload o : {Offload::kNone, Offload::kOptimizer})
    if (space.restricted("offload") ? space.admits("offload", std::string(offload_name(o))) : o == Offload::kNone)
      offloads.push_back(o);
  const PlatformSpec& p = base.platform;
  if (!offloads.empty() && offloads.back() == Offload::kOptimizer && !p.gives_host_side())
    throw UserError("search: --space offload=optimizer: platform '" + p.name +
                    "' gives no host_link_bandwidth / host_memory_bandwidth to time the offloaded step with; valid: "
                    "offload=none, or add both to the platform");
  std::vector<InnerChoice> out;
  for (int zero : zeros)
    for (Offload offload : offloads)
      for (bool tp_comm : bool_values(space, "overlap.tp_comm", g.tp > 1, false))
        for (bool gather : bool_values(space, "overlap.zero_param_gather", zero >= 1 && g.dp > 1, true))
          for (const std::string& order : distinct_orders(g, space))
            if (keeps_domains(g, order, base)) out.push_back({zero, offload, tp_comm, gather, order});
  return out;
}

std::vector<FlagChoice> flag_choices(const ComputeGroup& g, const SearchSpace& space) {
  std::vector<FlagChoice> out;
  for (bool dp : bool_values(space, "overlap.dp_grad_reduce", g.dp > 1, true))
    for (bool pp : bool_values(space, "overlap.pp_comm", g.pp > 1, true)) out.push_back({dp, pp});
  return out;
}

std::vector<int> recompute_layer_options(const ComputeGroup& g, const RunSpec& base, const SearchSpace& space) {
  if (g.recompute != Recompute::kFull) return {0};
  const int most = most_stage_layers(base, g);  // recomputing that many or more is recomputing all
  std::vector<int> out;
  for (int k = 1; k < most; ++k)
    if (space.admits("recompute_layers", k)) out.push_back(k);
  bool all = space.admits("recompute_layers", 0);  // counts of `most` or more recompute every layer too
  for (const std::string& k : space.values_or("recompute_layers", {})) all = all || std::stoi(k) >= most;
  if (all) out.push_back(0);
  return out;
}

void apply_choice(const ComputeGroup& g, const InnerChoice& c, const FlagChoice& f, int recompute_layers, RunSpec& run) {
  StrategySpec& s = run.strategy;
  s.tp = g.tp, s.pp = g.pp, s.dp = g.dp, s.cp = g.cp, s.ep = g.ep;
  s.schedule = g.schedule;
  s.virtual_stages = g.virtual_stages;
  s.first_stage_layers = g.first_stage_layers;
  s.last_stage_layers = g.last_stage_layers;
  s.sequence_parallel = g.sequence_parallel;
  s.recompute = g.recompute;
  s.recompute_layers = recompute_layers;
  s.zero_stage = c.zero_stage;
  s.offload = c.offload;
  s.overlap.tp_comm = c.tp_comm;
  s.overlap.zero_param_gather = c.param_gather;
  s.mesh_order = c.mesh_order;
  s.overlap.dp_grad_reduce = f.dp_grad_reduce;
  s.overlap.pp_comm = f.pp_comm;
  run.micro_batch = g.micro_batch;
  run.limit_overlap_to_framework();  // as the loader does
}

}  // namespace trainsim
