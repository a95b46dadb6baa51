// Group communication costs of a run (see comm_times.hpp).
#include "sim/analytic/comm_times.hpp"

#include <algorithm>

namespace trainsim {

CommCosts::CommCosts(const RunSpec& run) : run_(run), mesh_(run.strategy) {
  for (const TierSpec& t : run.platform.tiers) {
    const int size = t.domain_size <= 0 ? run.devices : std::min(t.domain_size, run.devices);
    domain_.push_back(std::max(1, size));
  }
  if (domain_.empty()) domain_.push_back(std::max(1, run.devices));
}

int CommCosts::tier_between(int a, int b) const {
  for (size_t k = 0; k < domain_.size(); ++k)
    if (a / domain_[k] == b / domain_[k]) return static_cast<int>(k);
  return static_cast<int>(domain_.size()) - 1;
}

LinkCost CommCosts::link(int tier) const {
  if (run_.platform.tiers.empty()) return {};
  const TierSpec& t = run_.platform.tiers[static_cast<size_t>(tier)];
  const bool mesh = t.topology == Topology::kFullMesh;
  return {t.latency, (mesh ? t.link_bandwidth : t.bandwidth) * t.planes * t.efficiency, mesh};
}

Seconds CommCosts::collective(int rank, Dim d, CollectiveKind kind, Bytes bytes) const {
  const std::vector<int> group = mesh_.group(rank, d);
  if (group.size() < 2 || bytes <= 0) return 0;
  const int node = domain_.front();
  int node_size = 0;
  for (int r : group) node_size += r / node == group.front() / node ? 1 : 0;
  const GroupShape shape{static_cast<int>(group.size()), std::max(1, node_size)};
  const int tier = tier_between(group.front(), group.back());
  std::string algorithm;
  const auto named = run_.collectives.find(to_string(d));
  if (named != run_.collectives.end()) {
    algorithm = named->second;
  } else if (!run_.platform.tiers.empty()) {
    const TierSpec& t = run_.platform.tiers[static_cast<size_t>(tier)];
    FabricHints hints;
    hints.in_network_reduction = t.in_network_reduction;
    hints.direct_links = t.topology == Topology::kFullMesh;
    algorithm = choose_collective(kind, shape, bytes, hints).name;
  }
  return collective_cost(kind, algorithm, shape, bytes, link(0), link(tier)).total();
}

Seconds CommCosts::p2p(int a, int b, Bytes bytes) const {
  const LinkCost l = link(tier_between(a, b));
  return l.alpha + (l.beta > 0 ? bytes / l.beta : 0);
}

}  // namespace trainsim
