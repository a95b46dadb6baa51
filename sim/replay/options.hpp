// How a replay runs.
#pragma once
#include <set>

namespace trainsim {

enum class CollectiveMode {
  kStep,  // every step of every collective is a set of SimGrid flows (exact, slower)
  kBulk,  // one flow per (sender, receiver) pair carrying all steps' bytes; the per-step
          // latency of the remaining steps is added analytically (agrees with kStep within 1%
          // when bandwidth dominates)
};

struct ReplayOptions {
  CollectiveMode collectives = CollectiveMode::kBulk;
  // Replay only the data-parallel replicas with dp index < replicas_kept (one replica for dense
  // models; whole expert-parallel groups for MoE; sim/replay/fold_decision.hpp). Collectives
  // whose group reaches folded-away ranks become flows issued by the replayed member on the real
  // links it shares with its peers (both directions). The fold monitor records where that is
  // not exact (sim/replay/fold_monitor.hpp); replay_exact then replays unfolded.
  bool fold_data_parallel = false;
  // Likewise replay only tp rank 0 of every tensor-parallel group.
  bool fold_tensor_parallel = false;
  std::set<int> trace_devices;   // ranks whose tasks are recorded as trace events
  bool link_stats = false;       // collect per-link bytes and utilization
};

}  // namespace trainsim
