// Folding: replaying a subset of the devices that stands for all of them, and only where that
// is exact.
//
// Folding data-parallel replicas keeps the replicas with dp index < replicas_kept(): one for
// dense models; for MoE models enough that every expert-parallel group is whole (EP groups are
// carved out of cp*dp, or tp*cp*dp with folded experts). Folding tensor parallelism keeps tp rank 0
// (declined where EP groups span the tp ranks). Every folded device P
// mirrors one replayed device, owner(P) (same coordinates, dp taken modulo replicas_kept, tp
// 0): replicas start together and the platform treats them alike, so P does at every moment
// what owner(P) does, and P's links carry what owner(P)'s links carry. The replay issues each
// flow that involves a folded device as its mirror image among replayed devices
// (sim/replay/flow_batch.hpp), which loads every link a replayed device uses exactly as the full
// replay does. That holds when:
//  - no link is shared by a replayed and a folded device: no tier is oversubscribed (uplinks
//    carry many devices' traffic) and no NIC serves a replayed and a folded device;
//  - every collective whose group has folded members is invariant under the shift that maps
//    members onto their owners: all pairs of the group on one tier (each member alone in its
//    domain of the tier below), the replayed members first, member m mirroring member m mod r,
//    and an algorithm whose flows do not depend on a member's index (ring, direct, NVLS);
//  - a collective slowed beside its GEMM (overlap_comm_slowdown) reaches its folded members over
//    private pair links only, where its stretched host-to-host transfers are exact.
// fold_obstacle() checks both before anything is replayed; replay_exact() replays unfolded,
// saying why, where one fails.
#pragma once
#include <string>
#include <vector>

#include "sim/config/run_spec.hpp"
#include "sim/graph/run_graph.hpp"
#include "sim/replay/options.hpp"
#include "sim/replay/timeline.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {

// Data-parallel replicas a DP-folded replay keeps: ep / gcd(ep, cp) (1 when ep == 1).
[[nodiscard]] int replicas_kept(const StrategySpec& strategy);
// owner[r]: the replayed device rank r mirrors; owner[r] == r exactly when r is replayed.
[[nodiscard]] std::vector<int> fold_owners(const Mesh& mesh, const StrategySpec& strategy, const ReplayOptions& options);
// Why folding as `options` asks would not be exact for this run ("" when it is exact).
[[nodiscard]] std::string fold_obstacle(const RunSpec& run, const RunGraph& graph, const Mesh& mesh,
                                        const ReplayOptions& options);

// Replays with the folding `options` asks for where it is exact, unfolded where it is not
// (Timeline::fold_note then says why).
[[nodiscard]] Timeline replay_exact(const RunSpec& run, const RunGraph& graph, const Mesh& mesh,
                                    const ReplayOptions& options);

}  // namespace trainsim
