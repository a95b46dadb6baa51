// Ring algorithms (Patarasuk & Yuan, JPDC 2009; NCCL's ring): members pass chunks to their
// right neighbour, member i -> i+1 (mod n), one chunk of bytes/n per step.
//   all-reduce     = reduce-scatter then all-gather: 2(n-1) steps, 2(n-1)/n of the buffer sent
//                    per member (formulas.md item 6).
//   reduce-scatter = n-1 steps, (n-1)/n sent per member.
//   all-gather     = n-1 steps, (n-1)/n sent per member (bytes = the gathered result).
//   broadcast      = pipelined chain rooted at member 0: the buffer is cut into n chunks;
//                    in step s member i forwards chunk s-i to member i+1, so 2n-2 steps
//                    ((n-1) to fill the chain, n-1 more to drain it). The last member only
//                    receives. Chunk count n is a fixed choice, not tuned like NCCL's slices.
//   all-to-all     = not supported (use "direct").
#include "sim/collective/plan_builder.hpp"

namespace trainsim {
namespace {

constexpr const char* kRingName = "ring";

CollectivePlan ring_broadcast(int n, Bytes bytes) {
  CollectivePlan plan;
  if (n < 2) return plan;
  const int chunks = n;
  const Bytes chunk = bytes / chunks;
  ensure_steps(plan, static_cast<size_t>(n - 1 + chunks - 1));
  for (int s = 0; s < n - 1 + chunks - 1; ++s) {
    for (int i = 0; i < n - 1; ++i) {
      const int c = s - i;  // the chunk member i forwards in step s
      if (c >= 0 && c < chunks) plan.steps[static_cast<size_t>(s)].transfers.push_back(Transfer{i, i + 1, chunk});
    }
  }
  return plan;
}

CollectivePlan ring_plan(CollectiveKind kind, const GroupShape& shape, Bytes bytes) {
  check_group(kRingName, shape, bytes);
  const int n = shape.members;
  CollectivePlan plan;
  const Bytes chunk = bytes / n;
  switch (kind) {
    case CollectiveKind::kAllReduce:
      add_ring_phase(plan, 0, 2 * (n - 1), iota_members(n), chunk);
      return plan;
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kAllGather:
      add_ring_phase(plan, 0, n - 1, iota_members(n), chunk);
      return plan;
    case CollectiveKind::kBroadcast:
      return ring_broadcast(n, bytes);
    case CollectiveKind::kAllToAll:
      break;
  }
  throw_unsupported(kRingName, kind);
}

}  // namespace

CollectiveAlgorithm ring_algorithm() {
  return CollectiveAlgorithm{
      kRingName,
      "ring: neighbour-to-neighbour chunks; all-reduce 2(n-1) steps of bytes/n, RS/AG n-1 steps, "
      "broadcast as a pipelined chain",
      {CollectiveKind::kAllReduce, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather,
       CollectiveKind::kBroadcast},
      ring_plan};
}

}  // namespace trainsim
