// The replay's breakdown of one run in the iteration formulas' terms (sim/analytic/iteration_model):
// mean seconds per device of forward, backward, recompute, optimizer, exposed TP/CP/EP/DP and the
// bubble together with idle. The replay runs as `trainsim simulate` runs it (bulk collectives,
// folding above 1,024 devices, replay_exact), in a forked child (SimGrid allows one engine per
// process), so `estimate` and `fit` can replay many runs.
#pragma once
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "sim/analytic/iteration_model.hpp"
#include "sim/config/run_spec.hpp"

namespace trainsim {

struct ReplayTerms {
  double iteration_time = 0;                   // seconds
  std::array<double, kIterationTerms> mean{};  // seconds, mean over replayed devices
};

// How much of the run the replay may fold: as `trainsim simulate` does by default (above 1,024
// devices), or wherever folding is possible (the fold plan folds only where it is exact and declines
// otherwise, sim/replay/fold_plan.hpp: the same times, 10-100x less work on large runs).
enum class FoldPolicy { kAsSimulate, kWherePossible };

// Replays `run` in this process and returns the terms as text (what a child sends back).
[[nodiscard]] std::string replay_terms_text(const RunSpec& run, FoldPolicy fold = FoldPolicy::kAsSimulate);
[[nodiscard]] ReplayTerms parse_replay_terms(const std::string& text);
// replay_terms_text in a forked child.
[[nodiscard]] ReplayTerms replay_terms(const RunSpec& run);

}  // namespace trainsim
