// Two-level (hierarchical) collectives for groups spanning nodes, as NCCL/HCCL do across
// servers: members are listed node by node, g = shape.node_size members per node, N nodes.
//   all-reduce     = intra-node ring reduce-scatter (g-1 steps of S/g)
//                  + inter-node ring all-reduce of each S/g shard among the members with the
//                    same local index (2(N-1) steps of S/(gN))
//                  + intra-node ring all-gather (g-1 steps of S/g).
//     Per member: 2(g-1)/g S inside the node + 2(N-1)/N S/g across nodes (formulas.md item 6).
//   reduce-scatter = intra-node RS (S/g shards) then inter-node RS of the shard (N-1 steps).
//   all-gather     = inter-node AG of the S/n pieces (N-1 steps) then intra-node AG (g-1 steps).
// All nodes (and all local indices) run their rings concurrently in the same steps.
// A group inside one node, or with one member per node, degenerates to the plain ring.
#include "sim/collective/plan_builder.hpp"
#include "sim/core/error.hpp"

namespace trainsim {
namespace {

constexpr const char* kHierarchicalName = "hierarchical";

struct TwoLevel {
  int g = 1;      // members per node
  int nodes = 1;  // N
};

std::vector<int> node_ring(const TwoLevel& t, int node) {
  std::vector<int> ring;
  for (int j = 0; j < t.g; ++j) ring.push_back(node * t.g + j);
  return ring;
}

std::vector<int> rail_ring(const TwoLevel& t, int local_index) {
  std::vector<int> ring;
  for (int k = 0; k < t.nodes; ++k) ring.push_back(k * t.g + local_index);
  return ring;
}

// Intra-node ring phase on every node, starting at `first`, `steps` steps of `chunk`.
void intra_phase(CollectivePlan& plan, const TwoLevel& t, size_t first, int steps, Bytes chunk) {
  for (int node = 0; node < t.nodes; ++node) add_ring_phase(plan, first, steps, node_ring(t, node), chunk);
}

// Inter-node ring phase on every local index.
void inter_phase(CollectivePlan& plan, const TwoLevel& t, size_t first, int steps, Bytes chunk) {
  for (int j = 0; j < t.g; ++j) add_ring_phase(plan, first, steps, rail_ring(t, j), chunk);
}

CollectivePlan two_level(CollectiveKind kind, const TwoLevel& t, Bytes bytes) {
  CollectivePlan plan;
  const Bytes shard = bytes / t.g;             // S/g: what each member owns after the intra RS
  const Bytes piece = shard / t.nodes;         // S/(gN) = S/n
  const size_t intra = static_cast<size_t>(t.g - 1);
  const size_t inter = static_cast<size_t>(t.nodes - 1);
  switch (kind) {
    case CollectiveKind::kAllReduce:
      intra_phase(plan, t, 0, t.g - 1, shard);
      inter_phase(plan, t, intra, 2 * (t.nodes - 1), piece);
      intra_phase(plan, t, intra + 2 * inter, t.g - 1, shard);
      return plan;
    case CollectiveKind::kReduceScatter:
      intra_phase(plan, t, 0, t.g - 1, shard);
      inter_phase(plan, t, intra, t.nodes - 1, piece);
      return plan;
    case CollectiveKind::kAllGather:
      inter_phase(plan, t, 0, t.nodes - 1, piece);
      intra_phase(plan, t, inter, t.g - 1, shard);
      return plan;
    default:
      throw_unsupported(kHierarchicalName, kind);
  }
}

CollectivePlan hierarchical_plan(CollectiveKind kind, const GroupShape& shape, Bytes bytes) {
  check_group(kHierarchicalName, shape, bytes);
  if (kind != CollectiveKind::kAllReduce && kind != CollectiveKind::kReduceScatter &&
      kind != CollectiveKind::kAllGather)
    throw_unsupported(kHierarchicalName, kind);
  const int n = shape.members;
  const int g = shape.node_size;
  if (g <= 1 || n <= g) return find_collective("ring").plan(kind, shape, bytes);
  if (n % g != 0)
    throw UserError("collective algorithm 'hierarchical' needs whole nodes: " + std::to_string(n) +
                    " members is not a multiple of node_size " + std::to_string(g));
  return two_level(kind, TwoLevel{g, n / g}, bytes);
}

}  // namespace

CollectiveAlgorithm hierarchical_algorithm() {
  return CollectiveAlgorithm{
      kHierarchicalName,
      "two-level: intra-node ring reduce-scatter, inter-node ring among members with the same "
      "local index, intra-node ring all-gather (for groups spanning nodes)",
      {CollectiveKind::kAllReduce, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather},
      hierarchical_plan};
}

}  // namespace trainsim
