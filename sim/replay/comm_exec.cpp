#include "sim/replay/comm_exec.hpp"

#include <algorithm>

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

// Members per node inside this group (groups are laid out node by node in the mesh order).
int group_node_size(const ReplayContext& ctx, const std::vector<int>& group) {
  const int node = std::max(1, ctx.platform.node_size);
  int count = 0;
  for (int r : group) count += (r / node == group.front() / node) ? 1 : 0;
  return std::max(1, count);
}

const CollectiveAlgorithm& pick_algorithm(const ReplayContext& ctx, const Task& task, const GroupShape& shape,
                                          int tier) {
  auto it = ctx.run->collectives.find(to_string(task.group));
  if (it != ctx.run->collectives.end()) return find_collective(it->second);
  const TierSpec& t = ctx.run->platform.tiers[static_cast<size_t>(tier)];
  FabricHints hints;
  hints.in_network_reduction = t.in_network_reduction;
  hints.direct_links = t.topology == Topology::kFullMesh;
  return choose_collective(task.collective, shape, task.bytes, hints);
}

// The flows of one step (or of a whole bulk collective) of one device, waited on together.
// When the replay is folded, each flow's window is reported to the fold monitor.
class FlowBatch {
 public:
  FlowBatch(ReplayContext& ctx, DeviceRuntime& dev, uint64_t instance, int tier)
      : ctx_(ctx), dev_(dev), instance_(instance), tier_(tier) {}

  // Flows to or from a member that is not replayed (folded away) are issued by this member
  // alone, host to host, so they still load the real links.
  // peer_rank < 0 stands for the switch of an in-network reduction (`switch_host`).
  void add(int peer_rank, Bytes bytes, bool outgoing, Stream stream, sg4::Host* switch_host) {
    DeviceRuntime* peer = peer_rank >= 0 ? ctx_.device(peer_rank) : nullptr;
    const auto size = static_cast<uint64_t>(bytes);
    if (ctx_.folding) watch(peer_rank, peer != nullptr, outgoing);
    if (peer == nullptr) {
      sg4::Host* other = peer_rank >= 0 ? ctx_.platform.hosts[static_cast<size_t>(peer_rank)] : switch_host;
      comms_.push_back(outgoing ? sg4::Comm::sendto_async(dev_.host, other, size)
                                : sg4::Comm::sendto_async(other, dev_.host, size));
    } else if (outgoing) {
      comms_.push_back(peer->mailbox[static_cast<int>(stream)]->put_async(&g_payload, size));
    } else {
      comms_.push_back(dev_.mailbox[static_cast<int>(stream)]->get_async<int>(&g_sink));
    }
  }

  void wait() {
    if (!comms_.empty()) sg4::Comm::wait_all(comms_);
    comms_.clear();
    for (const MonitoredFlow& f : watched_) ctx_.fold_monitor.end(f);
    watched_.clear();
  }

 private:
  // A flow between two replayed devices is watched once, from its sender's side, at both ends.
  void watch(int peer_rank, bool peer_replayed, bool outgoing) {
    const LinkDir dir = outgoing ? LinkDir::kUp : LinkDir::kDown;
    if (peer_rank < 0) return begin({dev_.rank, tier_, dir, instance_, false});
    const int tier = tier_between(ctx_.run->platform, ctx_.run->devices, dev_.rank, peer_rank);
    if (!peer_replayed) return begin({dev_.rank, tier, dir, instance_, true});
    if (!outgoing) return;
    begin({dev_.rank, tier, LinkDir::kUp, instance_, false});
    begin({peer_rank, tier, LinkDir::kDown, instance_, false});
  }
  void begin(const MonitoredFlow& f) {
    ctx_.fold_monitor.begin(f);
    watched_.push_back(f);
  }

  ReplayContext& ctx_;
  DeviceRuntime& dev_;
  uint64_t instance_;
  int tier_;
  std::vector<sg4::CommPtr> comms_;
  std::vector<MonitoredFlow> watched_;
};

}  // namespace

int rank_of(const std::vector<int>& group, int peer) {
  return peer == kSwitchMember ? -1 : group[static_cast<size_t>(peer)];
}

namespace {

// Whether folding reproduces this algorithm's flows to folded members exactly: each folded
// member's links then carry only its flows with its replayed neighbours (fold_monitor.hpp).
bool folds_exactly(const CollectiveAlgorithm& algorithm, const GroupShape& shape, const TierSpec& tier) {
  if (shape.members <= 2 || algorithm.name == "ring" || algorithm.name == "nvls") return true;
  return algorithm.name == "direct" && tier.topology == Topology::kFullMesh;
}

// The flows of `dev`'s part of collective instance `instance`, in step or bulk mode; returns
// payload bytes sent.
Bytes move_collective(ReplayContext& ctx, DeviceRuntime& dev, const Task& task, const std::vector<int>& group,
                      uint64_t instance, bool has_folded_members) {
  const GroupShape shape{static_cast<int>(group.size()), group_node_size(ctx, group)};
  // The tier joining the group's ends is the one its transfers use (groups are contiguous in it).
  const int tier = tier_between(ctx.run->platform, ctx.run->devices, group.front(), group.back());
  const CollectiveAlgorithm& algorithm = pick_algorithm(ctx, task, shape, tier);
  if (has_folded_members && !folds_exactly(algorithm, shape, ctx.run->platform.tiers[static_cast<size_t>(tier)]))
    ctx.fold_monitor.fail("the " + std::string(to_string(task.group)) + " group's " + algorithm.name +
                          " collective sends between folded members, which a folded replay does not issue");
  const MemberSchedule& mine =
      ctx.collectives.get(algorithm, task.collective, shape, task.bytes).members[static_cast<size_t>(member_index(group, dev.rank))];
  const Stream stream = stream_of(task.group);
  sg4::Host* sw = ctx.platform.switch_host(tier, dev.rank);
  FlowBatch batch(ctx, dev, instance, tier);
  Bytes sent = 0;
  if (ctx.options.collectives == CollectiveMode::kStep) {
    for (size_t s = 0; s < mine.step_sends.size(); ++s) {
      for (const auto& pb : mine.step_sends[s]) {
        batch.add(rank_of(group, pb.peer), pb.bytes, true, stream, sw);
        sent += pb.bytes;
      }
      for (const auto& pb : mine.step_recvs[s]) batch.add(rank_of(group, pb.peer), pb.bytes, false, stream, sw);
      batch.wait();
    }
    return sent;
  }
  Seconds latency = 0;
  for (const auto& pb : mine.bulk_sends) {
    const int peer = rank_of(group, pb.peer);
    batch.add(peer, pb.bytes, true, stream, sw);
    // The switch of an in-network reduction belongs to the group's tier.
    const Seconds hop = peer >= 0 ? ctx.latency_between(dev.rank, peer)
                                  : ctx.run->platform.tiers[static_cast<size_t>(tier)].latency;
    latency = std::max(latency, hop);
    sent += pb.bytes;
  }
  for (const auto& pb : mine.bulk_recvs) batch.add(rank_of(group, pb.peer), pb.bytes, false, stream, sw);
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
  const int replayed = ctx.folding || ctx.interference ? replayed_members(ctx, group) : static_cast<int>(group.size());
  if (ctx.interference) ctx.rendezvous.arrive(key, replayed, dev);
  const Bytes sent = move_collective(ctx, dev, task, group, key, replayed < static_cast<int>(group.size()));
  if (ctx.interference) ctx.rendezvous.leave(key, dev);
  return sent;
}

int pipeline_peer(const ReplayContext& ctx, int rank, int offset) {
  const int stages = ctx.mesh->degree(Dim::kPp);
  const int stage = ctx.mesh->coord(rank)[Dim::kPp];
  return ctx.mesh->rank_at_stage(rank, ((stage + offset) % stages + stages) % stages);
}

void run_send(ReplayContext& ctx, DeviceRuntime& dev, const Task& task, TaskId id) {
  const int peer_rank = pipeline_peer(ctx, dev.rank, task.peer_offset);
  DeviceRuntime* peer = ctx.device(peer_rank);
  sg4::Mailbox* box = task.peer_offset > 0 ? peer->pp_forward : peer->pp_backward;
  // Eager: the receiver's actor is the mailbox's receiver, so the bytes move from the put on.
  if (ctx.interference) begin_transfer(dev), begin_transfer(*peer);
  // A message names itself by its sender and task (top bit: not a collective instance).
  const uint64_t message = (uint64_t{1} << 63) | (static_cast<uint64_t>(dev.rank) << 32) | id;
  const int tier = ctx.folding ? tier_between(ctx.run->platform, ctx.run->devices, dev.rank, peer_rank) : 0;
  const MonitoredFlow up{dev.rank, tier, LinkDir::kUp, message, false};
  const MonitoredFlow down{peer_rank, tier, LinkDir::kDown, message, false};
  if (ctx.folding) ctx.fold_monitor.begin(up), ctx.fold_monitor.begin(down);
  box->put(&g_payload, static_cast<uint64_t>(task.bytes));
  if (ctx.folding) ctx.fold_monitor.end(up), ctx.fold_monitor.end(down);
  if (ctx.interference) end_transfer(dev), end_transfer(*peer);
}

void run_recv(ReplayContext&, DeviceRuntime& dev, const Task& task) {
  sg4::Mailbox* box = task.peer_offset < 0 ? dev.pp_forward : dev.pp_backward;
  box->get<int>();
}

}  // namespace trainsim
