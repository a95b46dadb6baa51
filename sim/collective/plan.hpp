// Collective algorithms turn a collective on a group of n members into point-to-point
// transfers, step by step. Members are indices 0..n-1 in the group; the caller maps them to ranks.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sim/core/units.hpp"

namespace trainsim {

enum class CollectiveKind : uint8_t { kAllReduce, kReduceScatter, kAllGather, kAllToAll, kBroadcast };
[[nodiscard]] const char* to_string(CollectiveKind k);

struct Transfer {
  int src = 0;        // member index
  int dst = 0;        // member index
  Bytes bytes = 0;
};

// Transfers of one step run concurrently; a step starts when the previous one ended
// (per member: a member's step-s sends start after its step-(s-1) receives completed).
struct CollectiveStep {
  std::vector<Transfer> transfers;
};

struct CollectivePlan {
  std::vector<CollectiveStep> steps;
};

// Shape of the group, so algorithms can be hierarchical: members are listed node by node,
// `node_size` members per node (1 if every member is on its own node).
struct GroupShape {
  int members = 1;
  int node_size = 1;
};

struct CollectiveAlgorithm {
  std::string name;         // "ring", "tree", "hierarchical", "direct", "nvls"
  std::string description;
  std::vector<CollectiveKind> supports;
  // `bytes` is the buffer size each member holds (for all-gather: the gathered result;
  // for all-to-all: what each member sends in total).
  std::function<CollectivePlan(CollectiveKind, const GroupShape&, Bytes bytes)> plan;
};

[[nodiscard]] const std::vector<CollectiveAlgorithm>& collective_algorithms();
[[nodiscard]] const CollectiveAlgorithm& find_collective(const std::string& name);  // throws UserError
// NCCL/HCCL-like default choice by kind, size and group shape; `in_network_reduction` from the tier.
[[nodiscard]] const CollectiveAlgorithm& choose_collective(CollectiveKind kind, const GroupShape& shape,
                                                           Bytes bytes, bool in_network_reduction);

}  // namespace trainsim
