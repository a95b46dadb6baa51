#include "sim/search/search.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include "sim/analytic/device_memory.hpp"
#include "sim/analytic/group_placements.hpp"
#include "sim/config/run_writer.hpp"
#include "sim/core/error.hpp"
#include "sim/search/bound.hpp"
#include "sim/search/top_k.hpp"
#include "sim/strategy/ep_overlap.hpp"

namespace trainsim {
namespace {

// What a group leaves open: derived from the group and the space whenever needed, never stored for
// all groups (hundreds of thousands of them on large runs; only a few thousand are expanded).
struct GroupChoices {
  std::vector<InnerChoice> inner;
  std::vector<FlagChoice> flags;
  std::vector<int> recompute_layers;
  long long size() const { return static_cast<long long>(inner.size() * flags.size() * recompute_layers.size()); }
};

struct BoundedGroup {
  ComputeGroup group;
  double bound = 0;    // seconds, sim/search/bound
  long long size = 0;  // strategies in the group
};

class Searcher {
 public:
  Searcher(const RunSpec& base, const SearchSpace& space, const IterationTheta& theta, int k)
      : space_(space), theta_(theta), work_(base), top_(k), capacity_(base.platform.accelerator.memory_capacity) {}

  SearchOutcome run() {
    GroupCounts gc;
    std::vector<BoundedGroup> groups = bound_groups(compute_groups(work_, space_, &gc));
    out_.counts.invalid = gc.invalid;
    std::stable_sort(groups.begin(), groups.end(),
                     [](const BoundedGroup& a, const BoundedGroup& b) { return a.bound < b.bound; });
    for (const BoundedGroup& g : groups) {
      if (out_.bound_used && g.bound >= top_.threshold()) {
        out_.counts.pruned_bound += g.size;
        continue;
      }
      expand(g.group, choices_of(g.group));
    }
    out_.top = top_.take();
    return std::move(out_);
  }

 private:
  GroupChoices choices_of(const ComputeGroup& g) const {
    return {inner_choices(g, space_, work_), flag_choices(g, space_), recompute_layer_options(g, work_, space_)};
  }

  std::vector<BoundedGroup> bound_groups(const std::vector<ComputeGroup>& groups) {
    std::vector<BoundedGroup> out;
    for (const ComputeGroup& g : groups) {
      const GroupChoices c = choices_of(g);
      if (c.size() == 0) continue;
      apply_choice(g, c.inner.front(), c.flags.front(), c.recompute_layers.front(), work_);
      ++out_.counts.extractions;
      const IterationInputs in = extract_compute_inputs(work_);
      out_.bound_used = out_.bound_used && bound_applies(in, theta_);
      out.push_back({g, iteration_lower_bound(in, theta_), c.size()});
      out_.counts.enumerated += c.size();
      ++out_.counts.groups;
    }
    return out;
  }

  IterationInputs extract() {
    ++out_.counts.extractions;
    return extract_iteration_inputs(work_, &placements_);
  }

  // Memory of the fullest stage with the current strategy of work_, bytes.
  double memory_now() { return peak_memory(stage_memory(work_)).total(); }

  void note_oom(double memory) {
    if (out_.closest_oom && out_.closest_oom->peak_memory <= memory) return;
    out_.closest_oom = RankedStrategy{work_, {}, memory, 0};
  }

  // The smallest model-state memory any inner choice reaches, with the most recomputation: a group
  // whose every choice overflows is pruned without extracting anything more.
  bool group_can_fit(const ComputeGroup& g, const GroupChoices& gc) {
    std::set<std::pair<int, Offload>> seen;
    double least = std::numeric_limits<double>::infinity();
    for (const InnerChoice& c : gc.inner) {
      if (!seen.insert({c.zero_stage, c.offload}).second) continue;
      apply_choice(g, c, gc.flags.front(), gc.recompute_layers.back(), work_);
      const double memory = memory_now();
      if (memory < least) least = memory;
      if (memory > capacity_) note_oom(memory);
    }
    return least <= capacity_;
  }

  // Index of the fewest recomputed layers that fit (memory falls as layers are recomputed), or
  // the option count when none does.
  size_t fewest_fitting(const ComputeGroup& g, const GroupChoices& gc, const InnerChoice& c) {
    size_t lo = 0, hi = gc.recompute_layers.size();
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      apply_choice(g, c, gc.flags.front(), gc.recompute_layers[mid], work_);
      if (memory_now() <= capacity_) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  void expand(const ComputeGroup& g, const GroupChoices& gc) {
    const long long per_choice = static_cast<long long>(gc.flags.size());
    if (!group_can_fit(g, gc)) {
      out_.counts.pruned_memory += gc.size();
      return;
    }
    ++out_.counts.groups_expanded;
    const long long options = static_cast<long long>(gc.recompute_layers.size());
    for (const InnerChoice& c : gc.inner) {
      const size_t k = options > 1 ? fewest_fitting(g, gc, c) : 0;
      out_.counts.pruned_memory += static_cast<long long>(std::min<size_t>(k, options)) * per_choice;
      if (k >= gc.recompute_layers.size()) {
        apply_choice(g, c, gc.flags.front(), gc.recompute_layers.back(), work_);
        note_oom(memory_now());
        continue;
      }
      // Fewer recomputed layers do not fit; more are never faster (each adds a forward's compute and
      // its TP traffic: the formulas' time is non-decreasing in recompute_layers), but a slower one
      // may still belong in the top k. So evaluate from the fewest that fit upwards until one cannot
      // enter the top k; every later one is slower still.
      size_t j = k;
      while (j < gc.recompute_layers.size()) {
        const double fastest = evaluate(g, gc.flags, c, gc.recompute_layers[j++]);
        if (fastest >= top_.threshold()) break;
      }
      out_.counts.pruned_bound += (options - static_cast<long long>(j)) * per_choice;
    }
  }

  // Evaluates every flag choice of one strategy; returns the fastest time (-infinity when it does
  // not fit, so that the caller goes on to more recomputation).
  double evaluate(const ComputeGroup& g, const std::vector<FlagChoice>& flags, const InnerChoice& c, int recompute_layers) {
    apply_choice(g, c, flags.front(), recompute_layers, work_);
    IterationInputs in = extract();
    const double peak = fullest_stage_memory(in);
    if (peak > capacity_) {
      out_.counts.pruned_memory += static_cast<long long>(flags.size());
      note_oom(peak);
      return -std::numeric_limits<double>::infinity();
    }
    double fastest = std::numeric_limits<double>::infinity();
    for (const FlagChoice& f : flags) {
      in.overlap_dp = f.dp_grad_reduce;
      in.overlap_pp = f.pp_comm;
      ++out_.counts.evaluated;
      IterationEstimate e = estimate_iteration(in, theta_);
      fastest = std::min(fastest, e.iteration_time);
      if (e.iteration_time > top_.threshold()) continue;  // an equal time still counts as an equivalent
      apply_choice(g, c, f, recompute_layers, work_);
      top_.push(RankedStrategy{work_, std::move(e), peak, 0});
    }
    return fastest;
  }

  const SearchSpace& space_;
  const IterationTheta& theta_;
  RunSpec work_;
  GroupPlacements placements_;  // kept across the strategies extracted one after the other
  TopK top_;
  double capacity_;
  SearchOutcome out_;
};

}  // namespace

SearchOutcome search_strategies(const RunSpec& base, const SearchSpace& space, const IterationTheta& theta, int top_k) {
  if (top_k < 1) throw UserError("search: --top must be at least 1 (got " + std::to_string(top_k) + ")");
  SearchOutcome out = Searcher(base, space, theta, top_k).run();
  if (out.counts.enumerated == 0) {
    const std::string restricted = space.describe();
    throw UserError("search: no valid strategy of " + base.model.name + " on " + std::to_string(base.devices) +
                    " devices with global batch " + std::to_string(base.global_batch) + " and sequence " +
                    std::to_string(base.seq_len) + (restricted.empty() ? "" : " under " + restricted) +
                    " (every split of the devices breaks a rule: tp must divide the heads, dp the global batch, "
                    "cp the sequence, pp be at most the layers)");
  }
  return out;
}

std::string strategy_label(const RunSpec& run) {
  const StrategySpec& s = run.strategy;
  std::string l = "tp" + std::to_string(s.tp) + " pp" + std::to_string(s.pp) + " dp" + std::to_string(s.dp) + " cp" +
                  std::to_string(s.cp) + (s.ep > 1 ? " ep" + std::to_string(s.ep) : "") + (s.folds_experts() ? " etp1" : "") + " mb" +
                  std::to_string(run.micro_batch) + " " + s.schedule +
                  (s.virtual_stages > 1 ? " v" + std::to_string(s.virtual_stages) : "") + (s.sequence_parallel ? " sp" : "");
  if (s.first_stage_layers > 0 || s.last_stage_layers > 0)
    l += " split:" + std::to_string(s.first_stage_layers) + "/" + std::to_string(s.last_stage_layers);
  l += std::string(" rc:") + recompute_name(s.recompute);
  if (s.recompute == Recompute::kFull && s.recompute_layers > 0) l += std::to_string(s.recompute_layers);
  if (s.zero_stage > 0) l += " zero" + std::to_string(s.zero_stage);
  if (s.offload != Offload::kNone) l += " offload";
  if (s.overlap.tp_comm) l += " tp-overlap";
  if (s.zero_stage > 0 && !s.overlap.zero_param_gather) l += " no-prefetch";
  if (s.dp > 1 && !s.overlap.dp_grad_reduce) l += " no-dp-overlap";
  if (s.pp > 1 && !s.overlap.pp_comm) l += " no-pp-overlap";
  if (merges_ep_passes(run)) l += " ep-overlap";
  if (s.mesh_order != "tp-cp-ep-dp-pp") l += " mesh:" + s.mesh_order;
  return l;
}

}  // namespace trainsim
