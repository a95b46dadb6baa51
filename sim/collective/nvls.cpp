// In-switch reduction (NVLink SHARP, "NVLS", NCCL >= 2.17; Hopper NVSwitch): the switch adds
// the members' buffers and multicasts the result, so each member's port carries the buffer
// about once up and once down, independent of n.
// Model: every member sends its input up to the switch (dst = kSwitchMember) and the switch
// sends each member its output (src = kSwitchMember), pipelined over k chunks so that the up
// and down directions overlap as in NCCL: in step s member i sends chunk s up and receives
// chunk s-1 down, k+1 steps in all, about (k+1)/k * bytes / B. k = bytes / 1 MiB, clamped to
// 1..8 (small buffers: 2 steps, 2 latencies).
//   all-reduce     : up bytes, down bytes.
//   reduce-scatter : up bytes, down bytes/n (the member's reduced piece).
//   all-gather     : up bytes/n (the member's piece), down bytes (bytes = gathered result).
// Simplifications: the switch's reduction is free and infinitely fast; NCCL's split into a
// multimem load-reduce and a multimem store (each port carrying bytes + bytes/n per
// direction) is folded into one up and one down stream. The replay maps kSwitchMember to the
// switch endpoint of the members' domain (BuiltPlatform::switch_host).
#include <algorithm>
#include <cmath>

#include "sim/collective/plan_builder.hpp"

namespace trainsim {
namespace {

constexpr const char* kNvlsName = "nvls";
constexpr Bytes kChunkBytes = 1024.0 * 1024;  // 1 MiB per pipelined chunk at least
constexpr int kMaxChunks = 8;

CollectivePlan nvls_plan(CollectiveKind kind, const GroupShape& shape, Bytes bytes) {
  check_group(kNvlsName, shape, bytes);
  const int n = shape.members;
  Bytes up = bytes;
  Bytes down = bytes;
  switch (kind) {
    case CollectiveKind::kAllReduce: break;
    case CollectiveKind::kReduceScatter: down = bytes / n; break;
    case CollectiveKind::kAllGather: up = bytes / n; break;
    default: throw_unsupported(kNvlsName, kind);
  }
  CollectivePlan plan;
  if (n < 2) return plan;
  const int chunks = std::clamp(static_cast<int>(std::floor(bytes / kChunkBytes)), 1, kMaxChunks);
  ensure_steps(plan, static_cast<size_t>(chunks + 1));
  for (int c = 0; c < chunks; ++c) {
    for (int i = 0; i < n; ++i) {
      plan.steps[static_cast<size_t>(c)].transfers.push_back(Transfer{i, kSwitchMember, up / chunks});
      plan.steps[static_cast<size_t>(c + 1)].transfers.push_back(Transfer{kSwitchMember, i, down / chunks});
    }
  }
  return plan;
}

}  // namespace

CollectiveAlgorithm nvls_algorithm() {
  return CollectiveAlgorithm{
      kNvlsName,
      "in-switch reduction (NVLink SHARP): each member streams its buffer up to the switch and the result "
      "back down, pipelined over up to 8 chunks; the switch is member -1",
      {CollectiveKind::kAllReduce, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather},
      nvls_plan};
}

}  // namespace trainsim
