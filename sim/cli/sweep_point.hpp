// One point of `trainsim sweep`: its run (the sweep's run with the --set overrides, then the
// point's own values), and what it produces: the replay of that run, or with --search the replay
// of the best of the strategies the search ranks first at that point. Used by a local sweep (in
// parallel children) and by each emitted job (`trainsim sweep --point I --jobs-dir DIR`).
#pragma once
#include <string>

#include "sim/config/run_spec.hpp"
#include "sim/sweep/grid.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace trainsim {

// Loads and checks the point's run as `simulate` would; with --search, without the strategy rules
// and with the strategy cleared (the search re-plans it). Throws UserError naming the point, its
// values and the loader's message (which names the key, the bad value and what is valid).
[[nodiscard]] RunSpec load_point_run(const SweepSpec& spec, const SweepPoint& point);

// Evaluates the point (replays in forked children: SimGrid allows one engine per process) and
// returns its result as text (sim/sweep/point_result). Deterministic: no timings.
[[nodiscard]] std::string evaluate_point(const SweepSpec& spec, const SweepPoint& point, const RunSpec& run);

}  // namespace trainsim
