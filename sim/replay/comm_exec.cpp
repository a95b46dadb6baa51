#include "sim/replay/comm_exec.hpp"

#include <algorithm>

#include "sim/replay/collective_choice.hpp"
#include "sim/replay/switch_plan.hpp"

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

sg4::CommPtr put(sg4::Mailbox* box, uint64_t size) { return box->put_init(&g_payload, size); }
sg4::CommPtr get(sg4::Mailbox* box) {
  return box->get_init()->set_dst_data(reinterpret_cast<void**>(&g_sink), sizeof(void*));
}

// The flows of one step (or of a whole bulk collective) of one device, posted together.
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
// bottleneck bandwidth / s: a rate bound on both ends of every flow (SimGrid keeps the lower).
class FlowBatch {
 public:
  // `tier`: the group's tier; the fold plan folds only groups whose pairs all cross it.
  // `slowdown`: 1, or the factor above for a pipelined collective.
  FlowBatch(ReplayContext& ctx, DeviceRuntime& dev, Stream stream, int tier, double slowdown, StartBatch& starts,
            std::vector<sg4::CommPtr>& flows, double* until)
      : ctx_(ctx),
        dev_(dev),
        stream_(stream),
        tier_(tier),
        slowdown_(slowdown),
        private_pairs_(private_pair_links(ctx.run->platform.tiers[static_cast<size_t>(tier)])),
        starts_(starts),
        flows_(flows),
        until_(until) {}

  // peer_rank < 0 stands for the switch of an in-network reduction on the batch's tier: its
  // transfers go through the device's switch proxy (switch_proxy.hpp) when the batch is posted.
  void add(int peer_rank, Bytes bytes, bool outgoing) {
    const auto size = static_cast<uint64_t>(bytes);
    if (peer_rank < 0) {
      (outgoing ? switch_up_ : switch_down_) += size;
      return;
    }
    DeviceRuntime* peer = ctx_.device(peer_rank);
    if (peer != nullptr)
      return outgoing ? post(put(peer->mailbox[static_cast<int>(stream_)], size), peer->host, true) : receive(peer->host);
    sg4::Host* folded = ctx_.platform.hosts[static_cast<size_t>(peer_rank)];
    if (private_pairs_) return host_to_host(folded, size, outgoing);
    const int owner = ctx_.link_owner[static_cast<size_t>(peer_rank)];
    sg4::Host* mirror = owner == dev_.rank ? folded : ctx_.device(owner)->host;
    if (owner == dev_.rank) {
      if (outgoing) host_to_host(folded, size, true);
    } else if (outgoing) {
      post(put(ctx_.device(owner)->mailbox[static_cast<int>(stream_)], size), mirror, true);
    } else {
      receive(mirror);
    }
  }

  // Posts the batch: the peers' flows in the order they were added, then the switch's. On a
  // private switch tier (switch_shortcut.hpp) the exchange is the batch's only traffic and holds
  // the stream for as long as its flows would take, each alone on its route: latency, then
  // bytes at the route's bottleneck bandwidth (the order of SimGrid's own computation).
  void post_all() {
    if ((switch_up_ > 0 || switch_down_ > 0) && ctx_.private_switch[static_cast<size_t>(tier_)]) {
      const SwitchRoute& r = switch_route(ctx_, dev_, tier_);
      const double now = sg4::Engine::get_clock();
      double end = -1;
      if (switch_up_ > 0)
        end = std::max(end, (now + r.up_latency) + static_cast<double>(switch_up_) * slowdown_ / r.up_bandwidth);
      if (switch_down_ > 0)
        end = std::max(end, (now + r.down_latency) + static_cast<double>(switch_down_) * slowdown_ / r.down_bandwidth);
      *until_ = end;
    } else if (switch_up_ > 0 || switch_down_ > 0) {
      const SwitchRoute& r = switch_route(ctx_, dev_, tier_);
      const size_t first = pending_.size();
      switch_proxy(ctx_, dev_, stream_, tier_).exchange(switch_up_, switch_down_, pending_);
      if (slowdown_ > 1)
        for (size_t i = first; i < pending_.size(); ++i)
          pending_[i]->set_rate((i == first && switch_up_ > 0 ? r.up_bandwidth : r.down_bandwidth) / slowdown_);
    }
    for (auto& c : pending_) {
      starts_.start(c);
      flows_.push_back(std::move(c));
    }
  }

 private:
  void post(sg4::CommPtr c) { pending_.push_back(std::move(c)); }
  // A flow between this device and `other`, bounded when the batch is slowed.
  void post(sg4::CommPtr c, const sg4::Host* other, bool outgoing) { post(bounded(std::move(c), other, outgoing)); }
  // `c` (not yet started) with the batch's rate bound, if any.
  sg4::CommPtr bounded(sg4::CommPtr c, const sg4::Host* other, bool outgoing) const {
    if (slowdown_ > 1) {
      double latency = 0, bandwidth = 0;
      route_figures(outgoing ? dev_.host : other, outgoing ? other : dev_.host, &latency, &bandwidth);
      c->set_rate(bandwidth / slowdown_);
    }
    return c;
  }
  void receive(const sg4::Host* from) { post(get(dev_.mailbox[static_cast<int>(stream_)]), from, false); }
  // To or from a folded peer. SimGrid 3.32 drops a rate bound on host-to-host comms, so a slowed
  // transfer carries its bytes times the slowdown: the same time on a private pair link, which
  // nothing else shares (fold_plan.cpp declines folding where a slowed group's links are shared);
  // the link's byte count (--links) then includes the stretch.
  void host_to_host(sg4::Host* other, uint64_t size, bool outgoing) {
    const auto stretched = static_cast<uint64_t>(static_cast<double>(size) * slowdown_);
    post((outgoing ? sg4::Comm::sendto_init(dev_.host, other) : sg4::Comm::sendto_init(other, dev_.host))
             ->set_payload_size(stretched));
  }

  ReplayContext& ctx_;
  DeviceRuntime& dev_;
  Stream stream_;
  int tier_;
  double slowdown_;
  bool private_pairs_;  // the tier's pair links are private (full mesh): folded peers keep them
  StartBatch& starts_;
  std::vector<sg4::CommPtr>& flows_;
  double* until_;
  std::vector<sg4::CommPtr> pending_;
  uint64_t switch_up_ = 0, switch_down_ = 0;  // bytes to and from the switch in this batch
};

int rank_of(const std::vector<int>& group, int peer) {
  return peer == kSwitchMember ? -1 : group[static_cast<size_t>(peer)];
}

int replayed_members(const ReplayContext& ctx, const std::vector<int>& group) {
  int n = 0;
  for (int r : group) n += ctx.device(r) != nullptr ? 1 : 0;
  return n;
}

// Members of one group run the same stage template, so (first member, task) names the instance.
uint64_t instance_key(const std::vector<int>& group, TaskId id) {
  return (static_cast<uint64_t>(group.front()) << 32) | id;
}

}  // namespace

double collective_slowdown(const RunSpec& run, const Task& task) {
  return task.pipelined ? run.platform.accelerator.overlap_comm_slowdown : 1;
}

const MemberSchedule& member_schedule(ReplayContext& ctx, const DeviceRuntime& dev, const Task& task,
                                      const std::vector<int>& group, int* tier) {
  GroupCollectiveMemo::Entry& chosen = ctx.choices.get(*ctx.run, ctx.platform.node_size, task, group);
  *tier = chosen.choice.tier;
  if (chosen.prepared == nullptr)
    chosen.prepared = &ctx.collectives.get(*chosen.choice.algorithm, task.collective, chosen.choice.shape, task.bytes);
  return chosen.prepared->members[static_cast<size_t>(member_index(group, dev.rank))];
}

int pipeline_peer(const ReplayContext& ctx, int rank, int offset) {
  const int stages = ctx.mesh->degree(Dim::kPp);
  const int stage = ctx.mesh->coord(rank)[Dim::kPp];
  return ctx.mesh->rank_at_stage(rank, ((stage + offset) % stages + stages) % stages);
}

double held_collective_seconds(ReplayContext& ctx, DeviceRuntime& dev, TaskId id, Bytes* sent) {
  const Task& task = dev.stage->graph->task(id);
  if (task.kind != TaskKind::kCollective || ctx.options.collectives != CollectiveMode::kBulk) return -1;
  const std::vector<int>& group = ctx.group(dev, task.group);
  if (group.size() < 2) return -1;
  int tier = 0;
  const MemberSchedule& mine = member_schedule(ctx, dev, task, group, &tier);
  if (!ctx.private_switch[static_cast<size_t>(tier)]) return -1;
  uint64_t up = 0, down = 0;
  *sent = 0;
  for (const auto& pb : mine.bulk_sends) {
    if (pb.peer != kSwitchMember) return -1;
    up += static_cast<uint64_t>(pb.bytes);
    *sent += pb.bytes;
  }
  for (const auto& pb : mine.bulk_recvs) {
    if (pb.peer != kSwitchMember) return -1;
    down += static_cast<uint64_t>(pb.bytes);
  }
  if (up == 0 && down == 0) return -1;
  // As FlowBatch::post_all and collective_batch time it, from a start at 0.
  const SwitchRoute& r = switch_route(ctx, dev, tier);
  const double slowdown = collective_slowdown(*ctx.run, task);
  double end = -1;
  if (up > 0) end = std::max(end, r.up_latency + static_cast<double>(up) * slowdown / r.up_bandwidth);
  if (down > 0) end = std::max(end, r.down_latency + static_cast<double>(down) * slowdown / r.down_bandwidth);
  const Seconds latency = mine.bulk_sends.empty() ? 0 : ctx.run->platform.tiers[static_cast<size_t>(tier)].latency;
  return end + merged_step_latencies(mine, latency);
}

Seconds merged_step_latencies(const MemberSchedule& mine, Seconds latency) {
  const size_t steps = mine.step_sends.size();
  return steps > 1 ? static_cast<double>(steps - 1) * latency : 0;
}

double begin_timed_collective(ReplayContext& ctx, DeviceRuntime& dev, TaskId id, Bytes* sent) {
  const double hold = held_collective_seconds(ctx, dev, id, sent);
  return hold < 0 ? -1 : begin_held_collective(ctx, dev, id, hold);
}

uint64_t collective_instance(ReplayContext& ctx, DeviceRuntime& dev, TaskId id) {
  return instance_key(ctx.group(dev, dev.stage->graph->task(id).group), id);
}

double begin_held_collective(ReplayContext& ctx, DeviceRuntime& dev, TaskId id, double hold) {
  const double end = sg4::Engine::get_clock() + hold;
  if (ctx.interference && !dev.stage->compute_blocking[id]) {
    const Task& task = dev.stage->graph->task(id);
    const std::vector<int>& group = ctx.group(dev, task.group);
    ctx.rendezvous.arrive(instance_key(group, id), replayed_members(ctx, group), dev, end);
  }
  return end;
}

CommOp::CommOp(ReplayContext& ctx, DeviceRuntime& dev, TaskId id)
    : ctx_(ctx), dev_(dev), task_(dev.stage->graph->task(id)), id_(id) {
  if (task_.kind == TaskKind::kCollective) {
    begin_collective();
  } else if (task_.kind == TaskKind::kSend && ctx.interference) {
    // Eager: the receiver's actor is the mailbox's receiver, so the bytes move from the put on.
    begin_transfer(dev);
    begin_transfer(*ctx.device(pipeline_peer(ctx, dev.rank, task_.peer_offset)));
  }
}

void CommOp::begin_collective() {
  group_ = &ctx_.group(dev_, task_.group);
  if (group_->size() < 2) return;
  mine_ = &member_schedule(ctx_, dev_, task_, *group_, &tier_);
  // While a compute-blocking collective runs none of its members computes (compiled_stage.hpp):
  // its moving bytes would slow nothing.
  if (!ctx_.interference || dev_.stage->compute_blocking[id_]) return;
  rendezvous_ = true;
  ctx_.rendezvous.arrive(instance_key(*group_, id_), replayed_members(ctx_, *group_), dev_);
}

bool CommOp::next(StartBatch& starts, std::vector<sg4::CommPtr>& flows, double* until) {
  *until = -1;
  if (task_.kind == TaskKind::kCollective) {
    if (collective_batch(starts, flows, until)) return true;
    if (tail_ <= 0 || tail_held_) return false;
    tail_held_ = true;
    *until = sg4::Engine::get_clock() + tail_;
    return true;
  }
  // A send (receives are the device loop's: it keeps one posted on each pipeline mailbox).
  if (batches_posted_++ > 0) return false;
  DeviceRuntime* peer = ctx_.device(pipeline_peer(ctx_, dev_.rank, task_.peer_offset));
  flows.push_back(put(task_.peer_offset > 0 ? peer->pp_forward : peer->pp_backward, static_cast<uint64_t>(task_.bytes)));
  sent_ = task_.bytes;
  starts.start(flows.back());
  return true;
}

bool CommOp::collective_batch(StartBatch& starts, std::vector<sg4::CommPtr>& flows, double* until) {
  if (mine_ == nullptr) return false;
  const MemberSchedule& mine = *mine_;
  const std::vector<int>& group = *group_;
  const Stream stream = stream_of(task_.group);
  if (ctx_.options.collectives == CollectiveMode::kStep) {
    if (batches_posted_ == mine.step_sends.size()) return false;
    const size_t s = batches_posted_++;
    FlowBatch batch(ctx_, dev_, stream, tier_, collective_slowdown(*ctx_.run, task_), starts, flows, until);
    for (const auto& pb : mine.step_sends[s]) {
      batch.add(rank_of(group, pb.peer), pb.bytes, true);
      sent_ += pb.bytes;
    }
    for (const auto& pb : mine.step_recvs[s]) batch.add(rank_of(group, pb.peer), pb.bytes, false);
    batch.post_all();
    return true;
  }
  if (batches_posted_++ > 0) return false;
  FlowBatch batch(ctx_, dev_, stream, tier_, collective_slowdown(*ctx_.run, task_), starts, flows, until);
  Seconds latency = 0;
  for (const auto& pb : mine.bulk_sends) {
    const int peer = rank_of(group, pb.peer);
    batch.add(peer, pb.bytes, true);
    // The switch of an in-network reduction belongs to the group's tier.
    const Seconds hop = peer >= 0 ? ctx_.latency_between(dev_.rank, peer)
                                  : ctx_.run->platform.tiers[static_cast<size_t>(tier_)].latency;
    latency = std::max(latency, hop);
    sent_ += pb.bytes;
  }
  for (const auto& pb : mine.bulk_recvs) batch.add(rank_of(group, pb.peer), pb.bytes, false);
  batch.post_all();
  // One flow paid one latency; the other steps' latencies are added analytically.
  tail_ = merged_step_latencies(mine, latency);
  return true;
}

Bytes CommOp::finish() {
  if (rendezvous_) {
    ctx_.rendezvous.leave(instance_key(*group_, id_), dev_);
  } else if (task_.kind == TaskKind::kSend && ctx_.interference) {
    end_transfer(dev_);  // the receiver ends its side when its receive completes (interference.hpp)
  }
  return sent_;
}

}  // namespace trainsim
