#include "sim/replay/collective_cache.hpp"

#include <map>

namespace trainsim {
namespace {

// Sums bytes per peer, keeping peers in first-seen order (deterministic).
std::vector<PeerBytes> merge_by_peer(const std::vector<std::vector<PeerBytes>>& steps) {
  std::vector<PeerBytes> out;
  std::map<int, size_t> index;
  for (const auto& step : steps) {
    for (const auto& pb : step) {
      auto it = index.find(pb.peer);
      if (it == index.end()) {
        index.emplace(pb.peer, out.size());
        out.push_back(pb);
      } else {
        out[it->second].bytes += pb.bytes;
      }
    }
  }
  return out;
}

}  // namespace

PreparedCollective prepare_collective(const CollectivePlan& plan, int members) {
  PreparedCollective out;
  out.members.resize(static_cast<size_t>(members));
  for (const auto& step : plan.steps) {
    std::vector<std::vector<PeerBytes>> sends(static_cast<size_t>(members));
    std::vector<std::vector<PeerBytes>> recvs(static_cast<size_t>(members));
    for (const auto& t : step.transfers) {
      // kSwitchMember (the in-network-reduction switch) is no member: flows to and from it are
      // issued by the member alone.
      const bool src_ok = t.src >= 0 && t.src < members, dst_ok = t.dst >= 0 && t.dst < members;
      if (t.src == t.dst) continue;
      if (src_ok && (dst_ok || t.dst == kSwitchMember)) sends[static_cast<size_t>(t.src)].push_back({t.dst, t.bytes});
      if (dst_ok && (src_ok || t.src == kSwitchMember)) recvs[static_cast<size_t>(t.dst)].push_back({t.src, t.bytes});
    }
    for (size_t m = 0; m < out.members.size(); ++m) {
      if (sends[m].empty() && recvs[m].empty()) continue;
      out.members[m].step_sends.push_back(std::move(sends[m]));
      out.members[m].step_recvs.push_back(std::move(recvs[m]));
    }
  }
  for (auto& m : out.members) {
    m.bulk_sends = merge_by_peer(m.step_sends);
    m.bulk_recvs = merge_by_peer(m.step_recvs);
  }
  return out;
}

const PreparedCollective& CollectiveCache::get(const CollectiveAlgorithm& algorithm, CollectiveKind kind,
                                               const GroupShape& shape, Bytes bytes) {
  Key key{algorithm.name, static_cast<int>(kind), shape.members, shape.node_size, bytes};
  auto it = cache_.find(key);
  if (it != cache_.end()) return *it->second;
  auto prepared = std::make_unique<PreparedCollective>(
      prepare_collective(algorithm.plan(kind, shape, bytes), shape.members));
  return *cache_.emplace(std::move(key), std::move(prepared)).first->second;
}

}  // namespace trainsim
