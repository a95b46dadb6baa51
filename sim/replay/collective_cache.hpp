// Collective plans, prepared once per (algorithm, kind, group shape, size) and split per member:
// what each member sends and receives at each step (step mode) and in total per peer (bulk mode).
// Plans are pure data; the replay turns them into SimGrid flows.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "sim/collective/plan.hpp"

namespace trainsim {

struct PeerBytes {
  int peer = 0;     // member index in the group, or kSwitchMember
  Bytes bytes = 0;
};

struct MemberSchedule {
  std::vector<std::vector<PeerBytes>> step_sends;  // per step this member takes part in
  std::vector<std::vector<PeerBytes>> step_recvs;  // same steps: who sends to it
  std::vector<PeerBytes> bulk_sends;               // all steps merged, one entry per peer
  std::vector<PeerBytes> bulk_recvs;
};

struct PreparedCollective {
  std::vector<MemberSchedule> members;
};

// Bulk mode merges all steps into one flow per peer, carrying exactly the bytes the steps send
// to that peer over that peer's real route (an all-to-all keeps its n-1 flows per member, so
// NICs, uplinks and spines carry what the real pattern puts on them).
[[nodiscard]] PreparedCollective prepare_collective(const CollectivePlan& plan, int members);

class CollectiveCache {
 public:
  const PreparedCollective& get(const CollectiveAlgorithm& algorithm, CollectiveKind kind,
                                const GroupShape& shape, Bytes bytes);

 private:
  using Key = std::tuple<std::string, int, int, int, double>;
  std::map<Key, std::unique_ptr<PreparedCollective>> cache_;
};

}  // namespace trainsim
