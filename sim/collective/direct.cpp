// Direct (pairwise) algorithms: every member talks to every other member without relays,
// as NCCL's all-to-all (grouped send/recv) and HCCL's mesh algorithms on a full-mesh HCCS.
//   all-to-all     : ONE step of all n(n-1) flows: bytes = what each member sends in total, its
//                    own share included; bytes/n to each other member -> (n-1)/n of bytes sent
//                    per member. NCCL runs an all-to-all as one group of ncclSend/ncclRecv (NCCL
//                    user guide, "Point-to-point communication", all-to-all example), whose
//                    transfers progress together, not in barrier-separated rounds: every flow
//                    shares its ports, NICs and uplinks with the others from the start, and the
//                    latency is paid once (a round-by-round plan would wait each round for its
//                    slowest, cross-node flow).
// RS, AG and AR use n-1 shifted steps: in step s (1..n-1) member i sends to member (i+s) mod n,
// so each step is a permutation (one flow out and one in per member), latency (n-1) alpha:
//   reduce-scatter : member i sends the bytes/n piece that member (i+s) owns; (n-1)/n sent.
//   all-gather     : bytes = the gathered result; member i sends its bytes/n piece; (n-1)/n.
//   all-reduce     : direct reduce-scatter then direct all-gather, 2(n-1) steps, 2(n-1)/n.
#include "sim/collective/plan_builder.hpp"

namespace trainsim {
namespace {

constexpr const char* kName = "direct";

// One step in which every member sends `piece` bytes to every other member.
void add_all_pairs(CollectivePlan& plan, int n, Bytes piece) {
  if (n < 2) return;
  ensure_steps(plan, 1);
  for (int i = 0; i < n; ++i)
    for (int s = 1; s < n; ++s) plan.steps[0].transfers.push_back(Transfer{i, (i + s) % n, piece});
}

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
      add_all_pairs(plan, n, piece);
      return plan;
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
      "direct/pairwise: all-to-all as one step of all pairs (grouped send/recv); RS, AG and "
      "all-reduce (RS+AG) in n-1 shifted steps, member i sends bytes/n to member i+s in step s",
      {CollectiveKind::kAllToAll, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather,
       CollectiveKind::kAllReduce},
      direct_plan};
}

}  // namespace trainsim
