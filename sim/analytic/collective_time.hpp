// Closed-form time of one collective on an idle fabric, in the alpha-beta model, for each
// registered algorithm as the replay's bulk mode runs it (sim/collective/*.cpp): every member
// sends its whole share to each peer in one flow, and the other steps' latencies are added, so
// time = steps * alpha + (largest bytes to one peer) / beta. Sources: Thakur et al. 2005 and
// Patarasuk & Yuan 2009 (ring: 2(n-1) alpha + 2(n-1)/n S/beta for all-reduce, (n-1) alpha +
// (n-1)/n S/beta for reduce-scatter/all-gather; /work notes formulas.md item 6), NCCL's NVLS and
// double binary tree as modelled in sim/collective/nvls.cpp and tree.cpp.
#pragma once
#include <string>

#include "sim/collective/plan.hpp"
#include "sim/core/units.hpp"

namespace trainsim {

// One tier's link as a collective sees it.
struct LinkCost {
  Seconds alpha = 0;         // one-way latency of a transfer, seconds
  BytesPerSecond beta = 0;   // bandwidth one flow reaches, bytes/s (per device, or per pair link)
  bool pair_links = false;   // every member pair has its own link of beta (full mesh): flows to
                             // different peers do not share a port
};

struct CollectiveCost {
  int steps = 0;             // latency terms on the critical path
  Seconds latency = 0;       // steps * alpha, seconds
  Seconds transfer = 0;      // bytes / beta of the slowest peer flow, seconds
  [[nodiscard]] Seconds total() const { return latency + transfer; }
};

// Time of collective `kind` of buffer `bytes` (all-gather: the gathered result; all-to-all: what
// one member sends in total) over `shape.members` members, `shape.node_size` per node, run with
// `algorithm` ("ring", "direct", "nvls", "hierarchical", "tree"). `intra` is the tier inside a
// node (hierarchical, and direct over several nodes), `inter` the tier joining the whole group.
// Zero for one member.
[[nodiscard]] CollectiveCost collective_cost(CollectiveKind kind, const std::string& algorithm,
                                             const GroupShape& shape, Bytes bytes, const LinkCost& intra,
                                             const LinkCost& inter);

// The same closed form as SymPy text in the symbols n (members), g (members per node), S (bytes),
// alpha, beta (the group's tier) and alpha_i, beta_i (the tier inside a node: hierarchical, and
// direct over several nodes). NVLS's chunk count k = clamp(floor(S / 1 MiB), 1, 8) is printed as k.
struct SympyLinks {
  bool pair_links = false;        // the group's tier is a full mesh
  bool intra_pair_links = false;  // the tier inside a node is a full mesh
  bool spans_nodes = false;       // g < n
};
[[nodiscard]] std::string collective_sympy(CollectiveKind kind, const std::string& algorithm, const SympyLinks& links);

}  // namespace trainsim
