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
  // Replay only the data-parallel replica with dp index 0 (every stage, tp, cp rank of it).
  // Collectives whose group reaches folded-away ranks become flows issued by the replayed
  // member on the real links it shares with its peers (both directions), so contention on its
  // own NIC stays; replicas are identical, so the makespan is the same when the fabric is not
  // shared between replicas. Only for runs with ep == 1.
  bool fold_data_parallel = false;
  // Likewise replay only tp rank 0 of every tensor-parallel group: TP ranks run the same kernels
  // and a TP collective's flows from and to the replayed rank load exactly its own ports.
  bool fold_tensor_parallel = false;
  std::set<int> trace_devices;   // ranks whose tasks are recorded as trace events
  bool link_stats = false;       // collect per-link bytes and utilization
};

}  // namespace trainsim
