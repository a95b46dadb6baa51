#include "sim/replay/comm_exec.hpp"

#include <algorithm>

#include "sim/replay/collective_choice.hpp"
#include "sim/replay/flow_batch.hpp"
#include "sim/replay/switch_plan.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {
namespace {

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
  flows.push_back(mailbox_put(task_.peer_offset > 0 ? peer->pp_forward : peer->pp_backward, static_cast<uint64_t>(task_.bytes)));
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
    FlowBatch batch(ctx_, dev_, stream, task_.group, tier_, collective_slowdown(*ctx_.run, task_), starts, flows, until);
    for (const auto& pb : mine.step_sends[s]) {
      batch.add(rank_of(group, pb.peer), pb.bytes, true);
      sent_ += pb.bytes;
    }
    for (const auto& pb : mine.step_recvs[s]) batch.add(rank_of(group, pb.peer), pb.bytes, false);
    batch.post_all();
    return true;
  }
  if (batches_posted_++ > 0) return false;
  FlowBatch batch(ctx_, dev_, stream, task_.group, tier_, collective_slowdown(*ctx_.run, task_), starts, flows, until);
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
