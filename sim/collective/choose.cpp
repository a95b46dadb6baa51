// Default algorithm per collective, in the spirit of NCCL's and HCCL's automatic choice.
// NCCL picks, per call, the algorithm its tuning model predicts fastest from per-algorithm
// latency and bandwidth tables (src/graph/tuning.cc); the outcome is: NVLS inside an NVLink
// SHARP domain, tree for small all-reduces on many nodes (its latency grows with log n instead
// of n), ring for large messages. HCCL uses mesh (direct) algorithms on the fully connected
// HCCS of one server and hierarchical ones across servers. The rule below is a fixed
// approximation of that outcome, not NCCL's tuning model:
//   all-to-all                                   -> direct
//   broadcast                                    -> ring (pipelined chain)
//   one member                                   -> ring (empty plan)
//   group inside one node (node_size >= members):
//     switch reduces (in_network_reduction)      -> nvls
//     full mesh (direct_links)                   -> direct
//     otherwise                                  -> ring
//   group across nodes (N = members / node_size nodes):
//     all-reduce, N >= 4, bytes < N * 64 KiB     -> tree
//     node_size > 1 and whole nodes              -> hierarchical
//     otherwise                                  -> ring
// The tree threshold N * 64 KiB follows where, in an alpha-beta model with alpha ~ 5 us and
// beta ~ 50 GB/s, the ring's 2(N-1) alpha latency term outweighs the unpipelined tree's extra
// bandwidth term (break-even ~ N alpha beta / log2 N): about 1 MiB at 4 nodes, a few MiB at 64.
#include "sim/collective/plan.hpp"

namespace trainsim {
namespace {

constexpr int kTreeMinNodes = 4;
constexpr Bytes kTreeBytesPerNode = 64.0 * 1024;  // 64 KiB per node, see above

bool reduction_kind(CollectiveKind kind) {
  return kind == CollectiveKind::kAllReduce || kind == CollectiveKind::kReduceScatter ||
         kind == CollectiveKind::kAllGather;
}

}  // namespace

const CollectiveAlgorithm& choose_collective(CollectiveKind kind, const GroupShape& shape, Bytes bytes,
                                             const FabricHints& fabric) {
  if (kind == CollectiveKind::kAllToAll) return find_collective("direct");
  if (kind == CollectiveKind::kBroadcast || shape.members <= 1) return find_collective("ring");
  const int g = shape.node_size < 1 ? 1 : shape.node_size;
  if (g >= shape.members) {
    if (fabric.in_network_reduction && reduction_kind(kind)) return find_collective("nvls");
    if (fabric.direct_links && reduction_kind(kind)) return find_collective("direct");
    return find_collective("ring");
  }
  const int nodes = (shape.members + g - 1) / g;
  if (kind == CollectiveKind::kAllReduce && nodes >= kTreeMinNodes && bytes < nodes * kTreeBytesPerNode)
    return find_collective("tree");
  if (g > 1 && shape.members % g == 0) return find_collective("hierarchical");
  return find_collective("ring");
}

const CollectiveAlgorithm& choose_collective(CollectiveKind kind, const GroupShape& shape, Bytes bytes,
                                             bool in_network_reduction) {
  FabricHints fabric;
  fabric.in_network_reduction = in_network_reduction;
  return choose_collective(kind, shape, bytes, fabric);
}

}  // namespace trainsim
