// In-switch reduction (NVLink SHARP, "NVLS", NCCL >= 2.17; Hopper NVSwitch): the switch adds
// the members' buffers and multicasts the result, so each member's port carries the buffer
// about once up and once down, independent of n.
// Model: step 0, every member sends its input up to the switch (dst = kSwitchMember); step 1,
// the switch sends each member its output (src = kSwitchMember).
//   all-reduce     : up bytes, down bytes.
//   reduce-scatter : up bytes, down bytes/n (the member's reduced piece).
//   all-gather     : up bytes/n (the member's piece), down bytes (bytes = gathered result).
// Simplifications: the switch's reduction is free and infinitely fast; NCCL's split into a
// multimem load-reduce and a multimem store (each port carrying bytes + bytes/n per
// direction) is folded into one up and one down transfer. The replay must map
// kSwitchMember to the switch endpoint of the members' domain.
#include "sim/collective/plan_builder.hpp"

namespace trainsim {
namespace {

constexpr const char* kName = "nvls";

CollectivePlan nvls_plan(CollectiveKind kind, const GroupShape& shape, Bytes bytes) {
  check_group(kName, shape, bytes);
  const int n = shape.members;
  Bytes up = bytes;
  Bytes down = bytes;
  switch (kind) {
    case CollectiveKind::kAllReduce: break;
    case CollectiveKind::kReduceScatter: down = bytes / n; break;
    case CollectiveKind::kAllGather: up = bytes / n; break;
    default: throw_unsupported(kName, kind);
  }
  CollectivePlan plan;
  if (n < 2) return plan;
  ensure_steps(plan, 2);
  for (int i = 0; i < n; ++i) {
    plan.steps[0].transfers.push_back(Transfer{i, kSwitchMember, up});
    plan.steps[1].transfers.push_back(Transfer{kSwitchMember, i, down});
  }
  return plan;
}

}  // namespace

CollectiveAlgorithm nvls_algorithm() {
  return CollectiveAlgorithm{
      kName,
      "in-switch reduction (NVLink SHARP): each member sends its buffer up to the switch once and "
      "receives the result once; 2 steps; the switch is member -1",
      {CollectiveKind::kAllReduce, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather},
      nvls_plan};
}

}  // namespace trainsim
