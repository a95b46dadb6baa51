#include "sim/collective/plan.hpp"

#include <algorithm>

#include "sim/collective/plan_builder.hpp"
#include "sim/core/error.hpp"

namespace trainsim {

const char* to_string(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::kAllReduce: return "all-reduce";
    case CollectiveKind::kReduceScatter: return "reduce-scatter";
    case CollectiveKind::kAllGather: return "all-gather";
    case CollectiveKind::kAllToAll: return "all-to-all";
    case CollectiveKind::kBroadcast: return "broadcast";
  }
  return "unknown";
}

bool supports(const CollectiveAlgorithm& algorithm, CollectiveKind kind) {
  return std::find(algorithm.supports.begin(), algorithm.supports.end(), kind) != algorithm.supports.end();
}

Bytes per_member_volume(const CollectivePlan& plan, int member) {
  Bytes sent = 0;
  for (const CollectiveStep& step : plan.steps)
    for (const Transfer& t : step.transfers)
      if (t.src == member) sent += t.bytes;
  return sent;
}

Bytes per_member_received(const CollectivePlan& plan, int member) {
  Bytes received = 0;
  for (const CollectiveStep& step : plan.steps)
    for (const Transfer& t : step.transfers)
      if (t.dst == member) received += t.bytes;
  return received;
}

int step_count(const CollectivePlan& plan) { return static_cast<int>(plan.steps.size()); }

void ensure_steps(CollectivePlan& plan, size_t count) {
  if (plan.steps.size() < count) plan.steps.resize(count);
}

void add_ring_phase(CollectivePlan& plan, size_t first_step, int steps, const std::vector<int>& ring,
                    Bytes chunk) {
  const size_t size = ring.size();
  if (size < 2 || steps <= 0) return;
  ensure_steps(plan, first_step + static_cast<size_t>(steps));
  for (int s = 0; s < steps; ++s) {
    std::vector<Transfer>& transfers = plan.steps[first_step + static_cast<size_t>(s)].transfers;
    for (size_t i = 0; i < size; ++i) transfers.push_back(Transfer{ring[i], ring[(i + 1) % size], chunk});
  }
}

std::vector<int> iota_members(int n) {
  std::vector<int> members(static_cast<size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i) members[static_cast<size_t>(i)] = i;
  return members;
}

void throw_unsupported(const std::string& name, CollectiveKind kind) {
  throw UserError("collective algorithm '" + name + "' does not support " + to_string(kind) +
                  "; see `trainsim list collectives` for the algorithms that do");
}

void check_group(const std::string& name, const GroupShape& shape, Bytes bytes) {
  if (shape.members < 1)
    throw UserError("collective algorithm '" + name + "': a group needs at least one member (got " +
                    std::to_string(shape.members) + ")");
  if (shape.node_size < 1)
    throw UserError("collective algorithm '" + name + "': node_size must be at least 1 (got " +
                    std::to_string(shape.node_size) + ")");
  if (!(bytes >= 0)) throw UserError("collective algorithm '" + name + "': negative buffer size");
}

}  // namespace trainsim
