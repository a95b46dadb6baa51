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
  // models; whole expert-parallel groups for MoE). Flows to and from folded devices are issued
  // as their mirror images among replayed devices; sim/replay/fold_plan.hpp says how and when
  // that is exact (replay_exact replays unfolded where it is not).
  bool fold_data_parallel = false;
  // Likewise replay only tp rank 0 of every tensor-parallel group.
  bool fold_tensor_parallel = false;
  std::set<int> trace_devices;   // ranks whose tasks are recorded as trace events
  bool link_stats = false;       // collect per-link bytes and utilization
  bool progress = false;         // report progress on stderr at most once a second (progress.hpp)
  // Time exchanges with a switch without flows where nothing else shares their links
  // (switch_shortcut.hpp; exact, declines by itself). Off: every exchange is a SimGrid flow.
  bool analytic_switch = true;
};

}  // namespace trainsim
