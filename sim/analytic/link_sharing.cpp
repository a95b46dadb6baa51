// Links per traffic kind and their sharing (see link_sharing.hpp).
#include "sim/analytic/link_sharing.hpp"

#include <algorithm>

#include "sim/analytic/collective_peers.hpp"

namespace trainsim {

LinkSharing::LinkSharing(const RunSpec& run, const CommCosts& cc, const Payloads& pl, int rank, Bytes dp_bytes)
    : run_(run) {
  const auto& s = run.strategy;
  add_collective(cc, rank, Traffic::kTp, Dim::kTp, s.sequence_parallel ? CollectiveKind::kReduceScatter : CollectiveKind::kAllReduce, pl.tp);
  add_collective(cc, rank, Traffic::kCp, Dim::kCp, CollectiveKind::kAllGather, pl.cp_kv);
  if (run.model.is_moe()) add_collective(cc, rank, Traffic::kEp, Dim::kEp, CollectiveKind::kAllToAll, pl.ep);
  const bool sharded = s.zero_stage >= 1 && s.zero_stage <= 2;
  const CollectiveKind dp_kind = s.zero_stage == 3 ? CollectiveKind::kAllGather
                                 : sharded         ? CollectiveKind::kReduceScatter
                                                   : CollectiveKind::kAllReduce;
  add_collective(cc, rank, Traffic::kDp, Dim::kDpCp, dp_kind, dp_bytes);
  // With ep > 1 the routed experts' buckets go over the expert data-parallel group (grad_sync.cpp):
  // their links, often a NIC the other dimensions leave alone, are DP traffic too.
  if (run.model.is_moe() && s.zero_stage < 3 && s.ep > 1 && expert_grad_degree(s) > 1)
    add_collective(cc, rank, Traffic::kDp, Dim::kEdp, dp_kind, dp_bytes);
  if (s.pp > 1) {
    const int stage = cc.mesh().coord(rank)[Dim::kPp];
    const int next = cc.mesh().rank_at_stage(rank, stage + 1 < s.pp ? stage + 1 : stage - 1);
    add_flow(cc, Traffic::kPp, cc.tier_between(rank, next), next, pl.pp);
  }
}

void LinkSharing::add_flow(const CommCosts& cc, Traffic t, int tier, int peer, Bytes bytes) {
  const bool mesh = !run_.platform.tiers.empty() &&
                    run_.platform.tiers[static_cast<size_t>(tier)].topology == Topology::kFullMesh;
  const LinkCost link = cc.link(tier);
  Use& use = links_[static_cast<size_t>(t)][{tier, mesh && peer >= 0 ? peer : -1}];
  use.flows += 1;
  use.seconds += link.beta > 0 ? bytes / link.beta : 0;
}

void LinkSharing::add_collective(const CommCosts& cc, int rank, Traffic t, Dim d, CollectiveKind kind, Bytes bytes) {
  if (bytes <= 0) return;
  const CollectiveSetup setup = cc.setup(rank, d, kind, bytes);
  if (setup.shape.members < 2) return;
  const std::vector<int>& group = cc.group(rank, d);
  const int member = static_cast<int>(std::find(group.begin(), group.end(), rank) - group.begin());
  for (const PeerSend& p : member_sends(kind, setup.algorithm, setup.shape, member)) {
    if (p.member == kSwitchMember) {
      add_flow(cc, t, cc.group_tier(rank, d), -1, p.share * bytes);
    } else {
      const int peer = group[static_cast<size_t>(p.member)];
      add_flow(cc, t, cc.tier_between(rank, peer), peer, p.share * bytes);
    }
  }
}

Slowdown LinkSharing::slowdown(Traffic of, Traffic beside) const {
  Slowdown out;
  if (of == beside) return out;
  const Links& mine = links_[static_cast<size_t>(of)];
  const Links& theirs = links_[static_cast<size_t>(beside)];
  double slowest = 0;
  for (const auto& [key, use] : mine) slowest = std::max(slowest, use.seconds);
  if (slowest <= 0) return out;
  double most = 1;
  for (const auto& [key, use] : mine) {
    const auto other = theirs.find(key);
    if (other == theirs.end() || use.flows <= 0) continue;
    const double stretched = use.seconds * (1 + other->second.flows / use.flows) / slowest;
    if (stretched > most) most = stretched, out.tier_class = key.first > 0 ? 1 : 0;
  }
  out.factor = most - 1;
  return out;
}

}  // namespace trainsim
