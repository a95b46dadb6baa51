#include "sim/replay/switch_plan.hpp"

#include "sim/replay/comm_exec.hpp"

namespace trainsim {
namespace {

// Appends the exchange of one batch (the sends and receives posted together), if it has one.
void add_batch(const std::vector<PeerBytes>& sends, const std::vector<PeerBytes>& recvs,
               std::vector<SwitchExchange>& out) {
  SwitchExchange e;
  for (const PeerBytes& pb : sends)
    if (pb.peer == kSwitchMember) e.up += static_cast<uint64_t>(pb.bytes);
  for (const PeerBytes& pb : recvs)
    if (pb.peer == kSwitchMember) e.down += static_cast<uint64_t>(pb.bytes);
  if (e.up > 0 || e.down > 0) out.push_back(e);
}

}  // namespace

std::vector<SwitchExchange> switch_exchanges(ReplayContext& ctx, DeviceRuntime& dev, Stream stream, int tier) {
  std::vector<SwitchExchange> out;
  const StageGraph& graph = *dev.stage->graph;
  for (const TaskId t : graph.order(stream)) {
    const Task& task = graph.task(t);
    if (task.kind != TaskKind::kCollective) continue;
    const std::vector<int>& group = ctx.group(dev, task.group);
    if (group.size() < 2) continue;  // run_collective moves nothing
    int task_tier = 0;
    const MemberSchedule& mine = member_schedule(ctx, dev, task, group, &task_tier);
    if (task_tier != tier) continue;
    if (ctx.options.collectives == CollectiveMode::kStep) {
      for (size_t s = 0; s < mine.step_sends.size(); ++s) add_batch(mine.step_sends[s], mine.step_recvs[s], out);
    } else {
      add_batch(mine.bulk_sends, mine.bulk_recvs, out);
    }
  }
  return out;
}

void route_figures(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to, double* latency, double* bandwidth) {
  std::vector<simgrid::s4u::Link*> links;
  *latency = 0;
  from->route_to(to, links, latency);
  *bandwidth = -1;
  for (const simgrid::s4u::Link* l : links)
    if (*bandwidth < 0 || l->get_bandwidth() < *bandwidth) *bandwidth = l->get_bandwidth();
}

const SwitchRoute& switch_route(ReplayContext& ctx, DeviceRuntime& dev, int tier) {
  if (dev.switch_routes.empty()) dev.switch_routes.resize(ctx.run->platform.tiers.size());
  SwitchRoute& r = dev.switch_routes[static_cast<size_t>(tier)];
  if (!r.known) {
    const simgrid::s4u::Host* sw = ctx.platform.switch_host(tier, dev.rank);
    route_figures(dev.host, sw, &r.up_latency, &r.up_bandwidth);
    route_figures(sw, dev.host, &r.down_latency, &r.down_bandwidth);
    r.known = true;
  }
  return r;
}

}  // namespace trainsim
