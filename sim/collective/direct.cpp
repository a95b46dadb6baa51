// Direct (pairwise) algorithms: every member talks to every other member without relays,
// as NCCL's all-to-all (grouped send/recv) and HCCL's mesh algorithms on a full-mesh HCCS.
// Choice made here: n-1 shifted steps rather than one step with all n(n-1) flows. In step
// s (1..n-1) member i sends to member (i+s) mod n, so each step is a permutation (one flow
// out and one in per member) and the latency term is (n-1) alpha, as in formulas.md item 7.
//   all-to-all     : bytes = what each member sends in total, its own share included;
//                    bytes/n to each other member -> (n-1)/n of bytes sent per member.
//   reduce-scatter : member i sends the bytes/n piece that member (i+s) owns; (n-1)/n sent.
//   all-gather     : bytes = the gathered result; member i sends its bytes/n piece; (n-1)/n.
//   all-reduce     : direct reduce-scatter then direct all-gather, 2(n-1) steps, 2(n-1)/n.
#include "sim/collective/plan_builder.hpp"

namespace trainsim {
namespace {

constexpr const char* kName = "direct";

// Adds the n-1 shifted steps starting at `first`, each pair carrying `piece` bytes.
void add_shifted(CollectivePlan& plan, size_t first, int n, Bytes piece) {
  if (n < 2) return;
  ensure_steps(plan, first + static_cast<size_t>(n - 1));
  for (int s = 1; s < n; ++s) {
    std::vector<Transfer>& transfers = plan.steps[first + static_cast<size_t>(s - 1)].transfers;
    for (int i = 0; i < n; ++i) transfers.push_back(Transfer{i, (i + s) % n, piece});
  }
}

CollectivePlan direct_plan(CollectiveKind kind, const GroupShape& shape, Bytes bytes) {
  check_group(kName, shape, bytes);
  const int n = shape.members;
  const Bytes piece = bytes / n;
  CollectivePlan plan;
  switch (kind) {
    case CollectiveKind::kAllToAll:
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kAllGather:
      add_shifted(plan, 0, n, piece);
      return plan;
    case CollectiveKind::kAllReduce:
      add_shifted(plan, 0, n, piece);
      add_shifted(plan, static_cast<size_t>(n - 1), n, piece);
      return plan;
    case CollectiveKind::kBroadcast:
      break;
  }
  throw_unsupported(kName, kind);
}

}  // namespace

CollectiveAlgorithm direct_algorithm() {
  return CollectiveAlgorithm{
      kName,
      "direct/pairwise: n-1 shifted steps, member i sends bytes/n to member i+s in step s; "
      "all-to-all, RS, AG, and all-reduce as RS+AG",
      {CollectiveKind::kAllToAll, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather,
       CollectiveKind::kAllReduce},
      direct_plan};
}

}  // namespace trainsim
