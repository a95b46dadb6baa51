// Which devices a folded replay keeps, what rules folding out before it starts, and the replay
// that folds only where folding is exact.
//
// Folding data-parallel replicas keeps the replicas with dp index < replicas_kept(): one replica
// for dense models; for MoE models enough replicas that every expert-parallel group is whole
// (EP groups are carved out of cp*dp, so folding a single replica would cut them). Folding
// tensor parallelism keeps tp rank 0.
#pragma once
#include <string>

#include "sim/config/run_spec.hpp"
#include "sim/graph/run_graph.hpp"
#include "sim/replay/options.hpp"
#include "sim/replay/timeline.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {

// Data-parallel replicas a DP-folded replay keeps: ep / gcd(ep, cp) (1 when ep == 1).
[[nodiscard]] int replicas_kept(const StrategySpec& strategy);
// Whether the device at `c` is replayed under `options`.
[[nodiscard]] bool is_replayed(const Coord& c, const StrategySpec& strategy, const ReplayOptions& options);
// Why folding as `options` asks cannot be exact on this platform, before replaying anything
// ("" when nothing rules it out): an oversubscribed tier (its uplinks carry every replica's
// traffic), or a NIC shared by a replayed and a folded device.
[[nodiscard]] std::string fold_obstacle(const RunSpec& run, const Mesh& mesh, const ReplayOptions& options);

// Replays with the folding `options` asks for where it is exact, and unfolded where it is not:
// a platform obstacle, or a conflict the fold monitor saw in a trial folded replay (run in a
// child process, as SimGrid allows one engine per process). Timeline::fold_note says which.
[[nodiscard]] Timeline replay_exact(const RunSpec& run, const RunGraph& graph, const Mesh& mesh,
                                    const ReplayOptions& options);

}  // namespace trainsim
