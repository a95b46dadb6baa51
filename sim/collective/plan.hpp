// Collective algorithms turn a collective on a group of n members into point-to-point
// transfers, step by step. Members are indices 0..n-1 in the group; the caller maps them to ranks.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/core/units.hpp"

namespace trainsim {

enum class CollectiveKind : uint8_t { kAllReduce, kReduceScatter, kAllGather, kAllToAll, kBroadcast };
[[nodiscard]] const char* to_string(CollectiveKind k);

// Pseudo member standing for the switch of an in-network reduction (NVLS / SHARP): a transfer
// with dst == kSwitchMember goes up the member's port into the switch, one with
// src == kSwitchMember comes down from it. The replay maps it to the switch endpoint of the
// member's domain (BuiltPlatform::switch_host in sim/platform/build.hpp).
inline constexpr int kSwitchMember = -1;

struct Transfer {
  int src = 0;        // member index, or kSwitchMember
  int dst = 0;        // member index, or kSwitchMember
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

// Registered algorithms, in registration order (sim/collective/registry.cpp).
[[nodiscard]] const std::vector<CollectiveAlgorithm>& collective_algorithms();
[[nodiscard]] const CollectiveAlgorithm& find_collective(const std::string& name);  // throws UserError
// NCCL/HCCL-like default choice by kind, size and group shape; `in_network_reduction` from the tier.
[[nodiscard]] const CollectiveAlgorithm& choose_collective(CollectiveKind kind, const GroupShape& shape,
                                                           Bytes bytes, bool in_network_reduction);

// What the fabric under a group offers, for the choice below (added beside the call above).
struct FabricHints {
  bool in_network_reduction = false;  // the switch can reduce (NVLink SHARP, IB SHARP)
  bool direct_links = false;          // every member pair has its own link (HCCS full mesh)
};
// Rule (choose.cpp): all-to-all -> direct; one member -> ring (empty plan); inside one node:
// nvls if the switch reduces (AR/RS/AG), direct on a full mesh (AR/RS/AG), else ring;
// across nodes: tree for small all-reduces on >= 4 nodes, hierarchical when nodes hold
// several members, else ring.
[[nodiscard]] const CollectiveAlgorithm& choose_collective(CollectiveKind kind, const GroupShape& shape,
                                                           Bytes bytes, const FabricHints& fabric);

// True if `algorithm` lists `kind` in its supports.
[[nodiscard]] bool supports(const CollectiveAlgorithm& algorithm, CollectiveKind kind);

// Bytes member `member` sends over the whole plan (kSwitchMember: what the switch sends).
[[nodiscard]] Bytes per_member_volume(const CollectivePlan& plan, int member);
// Bytes member `member` receives over the whole plan.
[[nodiscard]] Bytes per_member_received(const CollectivePlan& plan, int member);
// Number of steps (each step costs at least one latency on the critical path).
[[nodiscard]] int step_count(const CollectivePlan& plan);

}  // namespace trainsim
