#include "sim/strategy/domain_groups.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace trainsim {

std::optional<StraddlingGroup> first_straddling_group(const Mesh& mesh, Dim d, int domain_size) {
  if (domain_size <= 0 || mesh.degree(d) <= 1) return std::nullopt;
  // Every group is visited once, from its member with coordinate 0 along d.
  for (int rank = 0; rank < mesh.size(); ++rank) {
    if (mesh.coord(rank)[d] != 0) continue;
    const std::vector<int> ranks = mesh.group(rank, d);
    if (within_one_node(ranks, domain_size)) continue;
    std::set<int> domains;
    for (int r : ranks) domains.insert(node_of(r, domain_size));
    return StraddlingGroup{d, ranks, static_cast<int>(domains.size())};
  }
  return std::nullopt;
}

std::optional<StraddlingGroup> first_kept_straddling_group(const Mesh& mesh, const std::vector<std::string>& kept,
                                                          int domain_size) {
  for (Dim d : {Dim::kTp, Dim::kCp, Dim::kEp, Dim::kDp, Dim::kPp}) {
    if (std::find(kept.begin(), kept.end(), to_string(d)) == kept.end()) continue;
    if (auto g = first_straddling_group(mesh, d, domain_size)) return g;
  }
  return std::nullopt;
}

std::string group_text(const std::vector<int>& ranks) {
  std::string text = "{";
  for (size_t i = 0; i < ranks.size() && i < 2; ++i) text += (i ? "," : "") + std::to_string(ranks[i]);
  if (ranks.size() > 3) text += ",…";
  if (ranks.size() > 2) text += "," + std::to_string(ranks.back());
  return text + "}";
}

}  // namespace trainsim
