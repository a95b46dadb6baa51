// Whether the process groups of one parallel dimension stay inside the platform's innermost
// domains (NVLink islands, HCCS boxes): ranks are numbered domain by domain, so a group straddles
// when its members fall in more than one block of `domain_size` consecutive ranks. A straddling TP
// or EP group sends its per-layer collectives over the scale-out tier, which the run may forbid
// (`strategy.keep_in_domain`) and `check` warns about. Pure function of the mesh.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/strategy/mesh.hpp"

namespace trainsim {

struct StraddlingGroup {
  Dim dim = Dim::kTp;
  std::vector<int> ranks;  // its members, in group order
  int domains = 0;         // how many domains its members fall in
};

// The first group along `d` (groups taken in rank order of their member with coordinate 0) whose members are not all in one domain of `domain_size`
// consecutive ranks (domain_size <= 0: one domain holds every rank, nothing straddles).
[[nodiscard]] std::optional<StraddlingGroup> first_straddling_group(const Mesh& mesh, Dim d, int domain_size);

// The first straddling group of the dimensions named in `kept` (strategy.keep_in_domain: "tp", "cp",
// "ep", "dp", "pp"), taken in the order tp, cp, ep, dp, pp; none when every kept group fits a domain.
[[nodiscard]] std::optional<StraddlingGroup> first_kept_straddling_group(const Mesh& mesh,
                                                                         const std::vector<std::string>& kept,
                                                                         int domain_size);

// "{8,9,…,23}"-style text of a group (at most the first two members and the last).
[[nodiscard]] std::string group_text(const std::vector<int>& ranks);

}  // namespace trainsim
