// The flows of one step (or of a whole bulk collective) of one device, posted together
// (sim/replay/comm_exec.cpp moves a collective's bytes in such batches).
//
// A folded replay (sim/replay/fold_plan.hpp) keeps replicas that mirror the folded ones: a
// folded device P does, at the same times, what its replayed counterpart owner(P) does, so P's
// links carry what owner(P)'s links carry. A flow between a replayed device R and a folded P is
// therefore issued as its mirror image among replayed devices (exact for the groups fold_plan
// admits: every pair on one tier, plans invariant under a shift of the members):
//  - R -> P becomes a flow from R to owner(P)'s mailbox, crossing R's up-link and owner(P)'s
//    down-link on the pair's tier; when owner(P) is R itself it is a host-to-host transfer to
//    P's host, which the platform routes over R's own up- and down-link (build_platform's
//    link_owner). Either way the down-link carries exactly what P's down-link would.
//  - P -> R is the mirror of a flow that owner(P) sends to a folded device R mirrors: when
//    owner(P) is R, R's own transfer above stands for it; otherwise R receives owner(P)'s flow.
// On a tier whose pair links are private (full mesh) no other traffic shares them: R sends to
// and receives from P host to host on the real pair links.
//
// A collective pipelined with a GEMM on an accelerator whose communication slows beside its
// GEMMs (accelerator.overlap_comm_slowdown, s > 1) moves each flow at most at its route's
// bottleneck bandwidth / s: a rate bound on both ends of every flow.
#pragma once
#include <cstdint>
#include <vector>

#include <simgrid/s4u/Comm.hpp>

#include "sim/replay/mailbox_io.hpp"
#include "sim/replay/runtime.hpp"
#include "sim/replay/start_batch.hpp"

namespace trainsim {

class FlowBatch {
 public:
  // `tier`: the group's tier; the fold plan folds only groups whose pairs all cross it.
  // `slowdown`: 1, or the factor above for a pipelined collective. Started flows go to `flows`
  // (through `starts`); a batch timed without flows sets *until to the date it ends.
  // `dim`: the group's dimension, whose mailboxes carry its messages (runtime.hpp).
  FlowBatch(ReplayContext& ctx, DeviceRuntime& dev, Stream stream, Dim dim, int tier, double slowdown,
            StartBatch& starts, std::vector<simgrid::s4u::CommPtr>& flows, double* until);

  // peer_rank < 0 stands for the switch of an in-network reduction on the batch's tier: its
  // transfers go through the device's switch proxy (switch_proxy.hpp) when the batch is posted.
  void add(int peer_rank, Bytes bytes, bool outgoing);

  // Posts the batch: the peers' flows in the order they were added, then the switch's. On a
  // private switch tier (switch_shortcut.hpp) the exchange is the batch's only traffic and holds
  // the stream for as long as its flows would take, each alone on its route: latency, then
  // bytes at the route's bottleneck bandwidth (the order of SimGrid's own computation).
  void post_all();

 private:
  void post(simgrid::s4u::CommPtr c) { pending_.push_back(std::move(c)); }
  // A flow between this device and device `other`, bounded when the batch is slowed.
  void post(simgrid::s4u::CommPtr c, int other, bool outgoing);
  void receive(int from);
  // To or from a folded peer. SimGrid 3.32 drops a rate bound on host-to-host comms, so a slowed
  // transfer carries its bytes times the slowdown: the same time on a private pair link, which
  // nothing else shares (fold_plan.cpp declines folding where a slowed group's links are shared);
  // the link's byte count (--links) then includes the stretch.
  void host_to_host(simgrid::s4u::Host* other, uint64_t size, bool outgoing);
  // The switch proxy's transfers from pending_[first] on, bounded when the batch is slowed.
  void bound_switch_transfers(size_t first);

  ReplayContext& ctx_;
  DeviceRuntime& dev_;
  Stream stream_;
  Dim dim_;
  int tier_;
  double slowdown_;
  bool private_pairs_;  // the tier's pair links are private (full mesh): folded peers keep them
  StartBatch& starts_;
  std::vector<simgrid::s4u::CommPtr>& flows_;
  double* until_;
  std::vector<simgrid::s4u::CommPtr> pending_;
  uint64_t switch_up_ = 0, switch_down_ = 0;  // bytes to and from the switch in this batch
};

}  // namespace trainsim
