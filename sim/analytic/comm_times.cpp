// Group communication costs of a run (see comm_times.hpp).
#include "sim/analytic/comm_times.hpp"

#include "sim/analytic/run_payloads.hpp"

#include <algorithm>

namespace trainsim {

CommCosts::CommCosts(const RunSpec& run, GroupPlacements* placements)
    : run_(run), mesh_(run.strategy), placements_(placements ? placements : &own_) {
  for (const TierSpec& t : run.platform.tiers) {
    const int size = t.domain_size <= 0 ? run.devices : std::min(t.domain_size, run.devices);
    domain_.push_back(std::max(1, size));
  }
  if (domain_.empty()) domain_.push_back(std::max(1, run.devices));
  placements_->use(mesh_, domain_);
  for (int d = 0; d < kDims; ++d) {
    const auto named = run.collectives.find(collective_name(static_cast<Dim>(d)));
    if (named != run.collectives.end()) named_[static_cast<size_t>(d)] = &named->second;
  }
}

LinkCost CommCosts::link(int tier) const {
  if (run_.platform.tiers.empty()) return {};
  const TierSpec& t = run_.platform.tiers[static_cast<size_t>(tier)];
  const bool mesh = t.topology == Topology::kFullMesh;
  return {t.latency, (mesh ? t.link_bandwidth : t.bandwidth) * t.planes * t.efficiency, mesh};
}

CollectiveSetup CommCosts::setup(int rank, Dim d, CollectiveKind kind, Bytes bytes) const {
  const GroupPlacements::Placement& where = placements_->get(rank, d);
  const std::string* named = named_[static_cast<size_t>(d)];
  CollectiveSetup out;
  if (where.shape.members < 2) return out;
  out.shape = where.shape;
  const int tier = where.tier;
  if (named) {
    out.algorithm = *named;
  } else if (!run_.platform.tiers.empty()) {
    const TierSpec& t = run_.platform.tiers[static_cast<size_t>(tier)];
    FabricHints hints;
    hints.in_network_reduction = t.in_network_reduction;
    hints.direct_links = t.topology == Topology::kFullMesh;
    out.algorithm = choose_collective(kind, out.shape, bytes, hints).name;
  }
  out.intra = link(0);
  out.inter = link(tier);
  return out;
}

Seconds CommCosts::collective(int rank, Dim d, CollectiveKind kind, Bytes bytes) const {
  if (bytes <= 0) return 0;
  // Buckets and per-layer gathers repeat the same sizes: each distinct collective is costed once.
  const auto key = std::make_tuple(rank, static_cast<int>(d), static_cast<int>(kind), bytes);
  auto it = costs_.find(key);
  if (it != costs_.end()) return it->second;
  const CollectiveSetup c = setup(rank, d, kind, bytes);
  const Seconds t = c.shape.members < 2 ? 0 : collective_cost(kind, c.algorithm, c.shape, bytes, c.intra, c.inter).total();
  return costs_.emplace(key, t).first->second;
}

Seconds CommCosts::p2p(int a, int b, Bytes bytes) const {
  const LinkCost l = link(tier_between(a, b));
  return l.alpha + (l.beta > 0 ? bytes / l.beta : 0);
}

Seconds ep_exchange_seconds(const CommCosts& cc, int rank, const RunSpec& run) {
  return cc.collective(rank, Dim::kEp, CollectiveKind::kAllToAll, payloads(run).ep);
}

}  // namespace trainsim
