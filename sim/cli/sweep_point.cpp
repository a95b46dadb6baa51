#include "sim/cli/sweep_point.hpp"

#include "sim/analytic/device_memory.hpp"
#include "sim/cli/replay_terms.hpp"
#include "sim/cli/search_base.hpp"
#include "sim/cli/theta_file.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/child_process.hpp"
#include "sim/core/error.hpp"
#include "sim/report/metrics.hpp"
#include "sim/search/search.hpp"
#include "sim/strategy/mesh.hpp"
#include "sim/sweep/point_result.hpp"

namespace trainsim {
namespace {

// Fills the replayed figures of `r` from the replay of `run`.
void set_replayed(PointResult& r, const RunSpec& run, const ReplayTerms& t) {
  r.status = PointStatus::kReplayed;
  r.strategy = strategy_label(run);
  r.iteration_time = t.iteration_time;
  r.tokens_per_s = tokens_per_second(run, t.iteration_time);
  r.mfu = model_flops_utilization(run, t.iteration_time);
  for (size_t k = 0; k < r.terms.size(); ++k) r.terms[k] = t.mean[k];
}

ReplayTerms replay_in_child(const RunSpec& run) {
  // Folded wherever the fold is exact, as `search` replays (the figures `simulate` prints unfolded).
  return parse_replay_terms(call_in_child([&] { return replay_terms_text(run, FoldPolicy::kWherePossible); }));
}

void evaluate_run(PointResult& r, const RunSpec& run) {
  r.strategy = strategy_label(run);
  r.memory = peak_memory(stage_memory(run)).total();
  if (r.memory > r.capacity) {
    r.status = PointStatus::kOutOfMemory;
    return;
  }
  set_replayed(r, run, replay_in_child(run));
}

// The search's top k at this point, replayed; the replay's fastest wins (the first on a tie).
void evaluate_search(PointResult& r, const SweepSpec& spec, const RunSpec& run) {
  const SearchSpace space = parse_search_space(spec.space, spec.fix);
  const ThetaFile theta = load_theta_for(run.platform, spec.theta);
  const SearchOutcome outcome = search_strategies(run, space, theta.theta, spec.top);
  if (outcome.top.empty()) {
    r.status = PointStatus::kNoStrategy;
    if (outcome.closest_oom) r.memory = outcome.closest_oom->peak_memory;
    return;
  }
  const RankedStrategy* best = nullptr;
  ReplayTerms best_terms;
  for (const RankedStrategy& s : outcome.top) {
    const ReplayTerms t = replay_in_child(s.run);
    if (!best || t.iteration_time < best_terms.iteration_time) best = &s, best_terms = t;
  }
  r.candidates = static_cast<int>(outcome.top.size());
  r.memory = best->peak_memory;
  set_replayed(r, best->run, best_terms);
}

}  // namespace

RunSpec load_point_run(const SweepSpec& spec, const SweepPoint& point) {
  std::vector<std::string> overrides = spec.sets;
  for (const std::string& o : point_overrides(point)) overrides.push_back(o);
  try {
    // With --search the strategy is re-planned at every point: the run's own need not be valid there.
    if (spec.search) return with_strategy_cleared(load_run(spec.run_file, overrides, StrategyRules::kSkip));
    RunSpec run = load_run(spec.run_file, overrides);
    (void)Mesh(run.strategy);
    return run;
  } catch (const UserError& e) {
    throw UserError("sweep: " + point_label(point) + ": " + e.what());
  }
}

std::string evaluate_point(const SweepSpec& spec, const SweepPoint& point, const RunSpec& run) {
  PointResult r;
  r.point = point;
  r.capacity = run.platform.accelerator.memory_capacity;
  if (spec.search) evaluate_search(r, spec, run);
  else evaluate_run(r, run);
  return point_result_text(r);
}

}  // namespace trainsim
