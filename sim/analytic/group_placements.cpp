// Group placements of a mesh, kept while the mesh and tiers stay the same (see group_placements.hpp).
#include "sim/analytic/group_placements.hpp"

#include <algorithm>

namespace trainsim {

int tier_between(const std::vector<int>& domains, int a, int b) {
  for (size_t k = 0; k < domains.size(); ++k)
    if (a / domains[k] == b / domains[k]) return static_cast<int>(k);
  return static_cast<int>(domains.size()) - 1;
}

void GroupPlacements::use(const Mesh& mesh, const std::vector<int>& domains) {
  std::array<int, kDims> degrees{};
  for (int d = 0; d < kDims; ++d) degrees[static_cast<size_t>(d)] = mesh.degree(static_cast<Dim>(d));
  if (degrees != degrees_ || domains != domains_) {
    by_order_.clear();
    degrees_ = degrees;
    domains_ = domains;
  }
  current_ = &by_order_.try_emplace(mesh.order(), OfMesh{mesh, {}}).first->second;
}

const GroupPlacements::Placement& GroupPlacements::get(int rank, Dim d) {
  const auto key = std::make_pair(rank, static_cast<int>(d));
  auto& placements = current_->placements;
  auto it = placements.find(key);
  if (it != placements.end()) return it->second;
  Placement p;
  p.members = current_->mesh.group(rank, d);
  const std::vector<int>& group = p.members;
  if (group.size() >= 2) {
    const int node = domains_.front();
    int node_size = 0;
    for (int r : group) node_size += r / node == group.front() / node ? 1 : 0;
    p.shape = {static_cast<int>(group.size()), std::max(1, node_size)};
    p.tier = tier_between(domains_, group.front(), group.back());
  }
  return placements.emplace(key, std::move(p)).first->second;
}

}  // namespace trainsim
