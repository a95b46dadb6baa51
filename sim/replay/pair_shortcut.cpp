#include "sim/replay/pair_shortcut.hpp"

#include <algorithm>

#include "sim/platform/tier_layout.hpp"
#include "sim/replay/comm_exec.hpp"
#include "sim/replay/runtime.hpp"
#include "sim/replay/switch_plan.hpp"

namespace trainsim {

void PairRendezvous::arrive(uint64_t key, int members) {
  Instance& in = instances_[key];
  in.members = members;
  ++in.arrived;
}

bool PairRendezvous::decide(uint64_t key) {
  auto it = instances_.find(key);
  Instance& in = it->second;
  const bool timed = !in.flows && in.arrived == in.members;
  in.flows = !timed;
  if (++in.decided == in.members) instances_.erase(it);
  return timed;
}

const PairRoute& pair_route(ReplayContext& ctx, DeviceRuntime& dev, int peer) {
  for (const PairRoute& r : dev.pair_routes)
    if (r.peer == peer) return r;
  PairRoute r;
  r.peer = peer;
  const simgrid::s4u::Host* other = ctx.platform.hosts[static_cast<size_t>(peer)];
  route_figures(dev.host, other, &r.out_latency, &r.out_bandwidth);
  route_figures(other, dev.host, &r.in_latency, &r.in_bandwidth);
  dev.pair_routes.push_back(r);
  return dev.pair_routes.back();
}

double pair_collective_seconds(ReplayContext& ctx, DeviceRuntime& dev, TaskId id, Bytes* sent) {
  const Task& task = dev.stage->graph->task(id);
  if (task.kind != TaskKind::kCollective || ctx.options.collectives != CollectiveMode::kBulk) return -1;
  if (std::find(ctx.private_pairs.begin(), ctx.private_pairs.end(), 1) == ctx.private_pairs.end()) return -1;
  const std::vector<int>& group = ctx.group(dev, task.group);
  if (group.size() < 2) return -1;
  int tier = 0;
  const MemberSchedule& mine = member_schedule(ctx, dev, task, group, &tier);
  if (!ctx.private_pairs[static_cast<size_t>(tier)]) return -1;
  const double slowdown = collective_slowdown(*ctx.run, task);  // bytes at route bandwidth / slowdown
  double end = -1;
  Seconds latency = 0;
  *sent = 0;
  for (const auto* batch : {&mine.bulk_sends, &mine.bulk_recvs}) {
    const bool out = batch == &mine.bulk_sends;
    for (const PeerBytes& pb : *batch) {
      if (pb.peer == kSwitchMember) return -1;
      const int peer = group[static_cast<size_t>(pb.peer)];
      if (tier_between_sizes(ctx.domain_sizes, dev.rank, peer) != tier) return -1;
      const PairRoute& r = pair_route(ctx, dev, peer);
      const double bytes = static_cast<double>(static_cast<uint64_t>(pb.bytes)) * slowdown;
      end = std::max(end, out ? r.out_latency + bytes / r.out_bandwidth : r.in_latency + bytes / r.in_bandwidth);
      if (out) *sent += pb.bytes, latency = std::max(latency, ctx.latency_between(dev.rank, peer));
    }
  }
  // As CommOp::collective_batch holds the stream after the flows.
  return end < 0 ? -1 : end + merged_step_latencies(mine, latency);
}

}  // namespace trainsim
