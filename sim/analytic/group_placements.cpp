// Group placements of a mesh, kept while the mesh and tiers stay the same (see group_placements.hpp).
#include "sim/analytic/group_placements.hpp"

#include <algorithm>

namespace trainsim {

int tier_between(const std::vector<int>& domains, int a, int b) {
  for (size_t k = 0; k < domains.size(); ++k)
    if (a / domains[k] == b / domains[k]) return static_cast<int>(k);
  return static_cast<int>(domains.size()) - 1;
}

namespace {

bool power_of_two(int x) { return x > 0 && (x & (x - 1)) == 0; }

// `group`'s shape and tier on `domains` (members in the first member's node, innermost first).
GroupPlacements::Placement place(std::vector<int> group, const std::vector<int>& domains) {
  GroupPlacements::Placement p;
  p.members = std::move(group);
  const std::vector<int>& g = p.members;
  if (g.size() >= 2) {
    const int node = domains.front();
    int node_size = 0;
    for (int r : g) node_size += r / node == g.front() / node ? 1 : 0;
    p.shape = {static_cast<int>(g.size()), std::max(1, node_size)};
    p.tier = tier_between(domains, g.front(), g.back());
  }
  return p;
}

// Whether a is placed worse than b: it crosses a farther tier, or as far with fewer members
// sharing its first member's node.
bool worse(const GroupPlacements::Placement& a, const GroupPlacements::Placement& b) {
  if (a.tier != b.tier) return a.tier > b.tier;
  return a.shape.node_size < b.shape.node_size;
}

}  // namespace

void GroupPlacements::use(const Mesh& mesh, const std::vector<int>& domains) {
  std::array<int, kDims> degrees{};
  for (int d = 0; d < kDims; ++d) degrees[static_cast<size_t>(d)] = mesh.degree(static_cast<Dim>(d));
  if (degrees != degrees_ || domains != domains_) {
    by_order_.clear();
    degrees_ = degrees;
    domains_ = domains;
    // With every degree and every domain smaller than the mesh a power of two, each dimension owns
    // whole bits of the rank and a domain its low bits: every group of a dimension has one shape.
    uniform_ = std::all_of(degrees.begin(), degrees.end(), power_of_two) &&
               std::all_of(domains.begin(), domains.end(), [&](int n) { return n >= mesh.size() || power_of_two(n); });
  }
  current_ = &by_order_.try_emplace(mesh.order(), OfMesh{mesh, {}, {}}).first->second;
}

const GroupPlacements::Placement& GroupPlacements::worst_of_stage(int stage, Dim d) {
  const auto key = std::make_pair(stage, static_cast<int>(d));
  auto it = current_->worst.find(key);
  if (it != current_->worst.end()) return it->second;
  const Mesh& mesh = current_->mesh;
  Placement worst;
  for (int r = 0; r < mesh.size(); ++r) {
    const Coord c = mesh.coord(r);
    if (c[Dim::kPp] != stage || c[d] != 0) continue;  // one rank per group of the stage
    Placement p = place(mesh.group(r, d), domains_);
    if (worst.members.empty() || worse(p, worst)) worst = std::move(p);
  }
  return current_->worst.emplace(key, std::move(worst)).first->second;
}

const GroupPlacements::Placement& GroupPlacements::get(int rank, Dim d) {
  const auto key = std::make_pair(rank, static_cast<int>(d));
  auto& placements = current_->placements;
  auto it = placements.find(key);
  if (it != placements.end()) return it->second;
  Placement p = place(current_->mesh.group(rank, d), domains_);
  // The groups of one dimension in a stage run their collectives together and the stage waits for
  // the slowest: where domains do not hold whole groups (a 72-GPU NVLink domain and groups of 16),
  // some groups straddle two domains while others do not. Cost the worst placed one.
  if (p.shape.members >= 2 && !uniform_) {
    const Placement& worst = worst_of_stage(current_->mesh.coord(rank)[Dim::kPp], d);
    if (worse(worst, p)) p = worst;
  }
  return placements.emplace(key, std::move(p)).first->second;
}

}  // namespace trainsim
