// `trainsim search`'s planner: every strategy of a space, ranked by the iteration formulas, with
// the best k guaranteed under them. Compute groups (sim/search/groups) are bounded first
// (sim/search/bound: one input extraction each, plus their smallest possible memory), then
// expanded best bound first; once a group's bound is not below the k-th best time found, it and
// every later group are pruned, so no pruned strategy could have entered the top k. Every
// strategy is counted exactly once: not fitting in memory, pruned by the bound, or evaluated.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/analytic/iteration_model.hpp"
#include "sim/search/groups.hpp"

namespace trainsim {

struct RankedStrategy {
  RunSpec run;                  // the base run with this strategy and micro-batch
  IterationEstimate estimate;   // the formulas' terms
  double peak_memory = 0;       // bytes, the fullest stage's device
  int equivalents = 0;          // strategies found later with the same formula time (not listed)
};

struct SearchCounts {
  long long enumerated = 0;        // valid strategies in the space
  long long pruned_memory = 0;     // of them, not fitting in device memory
  long long pruned_bound = 0;      // skipped: a lower bound showed they cannot enter the top k
  long long evaluated = 0;         // formulas evaluated
  long long invalid = 0;           // combinations a schedule rule rejects (not in `enumerated`)
  long long groups = 0, groups_expanded = 0;
  long long extractions = 0;       // formula input extractions (the search's main cost)
};

struct SearchOutcome {
  std::vector<RankedStrategy> top;           // best first, distinct times (see TopK)
  SearchCounts counts;
  std::optional<RankedStrategy> closest_oom;  // when nothing fits: the strategy needing least memory
  bool bound_used = true;                     // false: theta < 0 somewhere, every group expanded
};

// `base` holds the model, platform, devices, batch, sequence and the run fields the space does not
// search (framework overhead, buckets, collectives, ...). Throws UserError when the space admits
// no valid strategy at all (naming the restrictions).
[[nodiscard]] SearchOutcome search_strategies(const RunSpec& base, const SearchSpace& space, const IterationTheta& theta,
                                              int top_k);

// "tp8 pp8 dp16 cp1 ep1 mb1 interleaved v3 sp recompute=selective zero1 ..." — one line, every knob.
[[nodiscard]] std::string strategy_label(const RunSpec& run);

}  // namespace trainsim
