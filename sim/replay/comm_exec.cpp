#include "sim/replay/comm_exec.hpp"

#include <algorithm>

#include "sim/replay/collective_choice.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {
namespace {

// Payload pointer for simulated messages: only sizes matter, nothing is dereferenced.
// Receives store the pointer they got into g_sink (all writes are the same value).
int g_payload = 0;
int* g_sink = nullptr;

Stream stream_of(Dim d) {
  switch (d) {
    case Dim::kTp: return Stream::kTp;
    case Dim::kCp: return Stream::kCp;
    case Dim::kEp: return Stream::kEp;
    default: return Stream::kDp;
  }
}

int member_index(const std::vector<int>& group, int rank) {
  return static_cast<int>(std::find(group.begin(), group.end(), rank) - group.begin());
}

// The flows of one step (or of a whole bulk collective) of one device, waited on together.
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
class FlowBatch {
 public:
  // `tier`: the group's tier; the fold plan folds only groups whose pairs all cross it.
  FlowBatch(ReplayContext& ctx, DeviceRuntime& dev, Stream stream, int tier)
      : ctx_(ctx),
        dev_(dev),
        stream_(stream),
        tier_(tier),
        private_pairs_(private_pair_links(ctx.run->platform.tiers[static_cast<size_t>(tier)])) {}

  // peer_rank < 0 stands for the switch of an in-network reduction on the batch's tier: its
  // transfers go through the device's switch proxy (switch_proxy.hpp) when the batch is waited on.
  void add(int peer_rank, Bytes bytes, bool outgoing) {
    const auto size = static_cast<uint64_t>(bytes);
    if (peer_rank < 0) {
      (outgoing ? switch_up_ : switch_down_) += size;
      return;
    }
    DeviceRuntime* peer = ctx_.device(peer_rank);
    if (peer != nullptr) return outgoing ? put(*peer, size) : get();
    sg4::Host* folded = ctx_.platform.hosts[static_cast<size_t>(peer_rank)];
    if (private_pairs_) return host_to_host(folded, size, outgoing);
    const int owner = ctx_.link_owner[static_cast<size_t>(peer_rank)];
    if (owner == dev_.rank) {
      if (outgoing) host_to_host(folded, size, true);
    } else if (outgoing) {
      put(*ctx_.device(owner), size);
    } else {
      get();
    }
  }

  void wait() {
    if (switch_up_ > 0 || switch_down_ > 0) switch_proxy(ctx_, dev_, stream_, tier_).exchange(switch_up_, switch_down_, comms_);
    switch_up_ = switch_down_ = 0;
    if (!comms_.empty()) sg4::Comm::wait_all(comms_);
    comms_.clear();
  }

 private:
  void put(DeviceRuntime& to, uint64_t size) {
    comms_.push_back(to.mailbox[static_cast<int>(stream_)]->put_async(&g_payload, size));
  }
  void get() { comms_.push_back(dev_.mailbox[static_cast<int>(stream_)]->get_async<int>(&g_sink)); }
  void host_to_host(sg4::Host* other, uint64_t size, bool outgoing) {
    comms_.push_back(outgoing ? sg4::Comm::sendto_async(dev_.host, other, size)
                              : sg4::Comm::sendto_async(other, dev_.host, size));
  }

  ReplayContext& ctx_;
  DeviceRuntime& dev_;
  Stream stream_;
  int tier_;
  bool private_pairs_;  // the tier's pair links are private (full mesh): folded peers keep them
  uint64_t switch_up_ = 0, switch_down_ = 0;  // bytes to and from the switch in this batch
  std::vector<sg4::CommPtr> comms_;
};

}  // namespace

const MemberSchedule& member_schedule(ReplayContext& ctx, const DeviceRuntime& dev, const Task& task,
                                      const std::vector<int>& group, int* tier) {
  GroupCollectiveMemo::Entry& chosen = ctx.choices.get(*ctx.run, ctx.platform.node_size, task, group);
  *tier = chosen.choice.tier;
  if (chosen.prepared == nullptr)
    chosen.prepared = &ctx.collectives.get(*chosen.choice.algorithm, task.collective, chosen.choice.shape, task.bytes);
  return chosen.prepared->members[static_cast<size_t>(member_index(group, dev.rank))];
}

int rank_of(const std::vector<int>& group, int peer) {
  return peer == kSwitchMember ? -1 : group[static_cast<size_t>(peer)];
}

namespace {

// The flows of `dev`'s part of one collective, in step or bulk mode; returns payload bytes sent.
Bytes move_collective(ReplayContext& ctx, DeviceRuntime& dev, const Task& task, const std::vector<int>& group) {
  int tier = 0;
  const MemberSchedule& mine = member_schedule(ctx, dev, task, group, &tier);
  const Stream stream = stream_of(task.group);
  FlowBatch batch(ctx, dev, stream, tier);
  Bytes sent = 0;
  if (ctx.options.collectives == CollectiveMode::kStep) {
    for (size_t s = 0; s < mine.step_sends.size(); ++s) {
      for (const auto& pb : mine.step_sends[s]) {
        batch.add(rank_of(group, pb.peer), pb.bytes, true);
        sent += pb.bytes;
      }
      for (const auto& pb : mine.step_recvs[s]) batch.add(rank_of(group, pb.peer), pb.bytes, false);
      batch.wait();
    }
    return sent;
  }
  Seconds latency = 0;
  for (const auto& pb : mine.bulk_sends) {
    const int peer = rank_of(group, pb.peer);
    batch.add(peer, pb.bytes, true);
    // The switch of an in-network reduction belongs to the group's tier.
    const Seconds hop = peer >= 0 ? ctx.latency_between(dev.rank, peer)
                                  : ctx.run->platform.tiers[static_cast<size_t>(tier)].latency;
    latency = std::max(latency, hop);
    sent += pb.bytes;
  }
  for (const auto& pb : mine.bulk_recvs) batch.add(rank_of(group, pb.peer), pb.bytes, false);
  batch.wait();
  // One flow paid one latency; the other steps' latencies are added analytically.
  const size_t steps = mine.step_sends.size();
  if (steps > 1) sg4::this_actor::sleep_for(static_cast<double>(steps - 1) * latency);
  return sent;
}

int replayed_members(const ReplayContext& ctx, const std::vector<int>& group) {
  int n = 0;
  for (int r : group) n += ctx.device(r) != nullptr ? 1 : 0;
  return n;
}

}  // namespace

Bytes run_collective(ReplayContext& ctx, DeviceRuntime& dev, const Task& task, TaskId id) {
  const std::vector<int>& group = ctx.group(dev, task.group);
  if (group.size() < 2) return 0;
  // Members of one group run the same stage template, so (first member, task) names the instance.
  const uint64_t key = (static_cast<uint64_t>(group.front()) << 32) | id;
  if (!ctx.interference) return move_collective(ctx, dev, task, group);
  ctx.rendezvous.arrive(key, replayed_members(ctx, group), dev);
  const Bytes sent = move_collective(ctx, dev, task, group);
  ctx.rendezvous.leave(key, dev);
  return sent;
}

int pipeline_peer(const ReplayContext& ctx, int rank, int offset) {
  const int stages = ctx.mesh->degree(Dim::kPp);
  const int stage = ctx.mesh->coord(rank)[Dim::kPp];
  return ctx.mesh->rank_at_stage(rank, ((stage + offset) % stages + stages) % stages);
}

void run_send(ReplayContext& ctx, DeviceRuntime& dev, const Task& task) {
  const int peer_rank = pipeline_peer(ctx, dev.rank, task.peer_offset);
  DeviceRuntime* peer = ctx.device(peer_rank);
  sg4::Mailbox* box = task.peer_offset > 0 ? peer->pp_forward : peer->pp_backward;
  // Eager: the receiver's actor is the mailbox's receiver, so the bytes move from the put on.
  if (ctx.interference) begin_transfer(dev, *peer);
  box->put(&g_payload, static_cast<uint64_t>(task.bytes));
  if (ctx.interference) end_transfer(dev, *peer);
}

void run_recv(ReplayContext&, DeviceRuntime& dev, const Task& task) {
  sg4::Mailbox* box = task.peer_offset < 0 ? dev.pp_forward : dev.pp_backward;
  box->get<int>();
}

}  // namespace trainsim
