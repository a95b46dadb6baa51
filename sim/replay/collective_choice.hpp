// How the replay runs one collective task on its group: the group's shape (members, members
// per node), the tier its transfers use and the algorithm (the run's `collectives:` choice or
// the automatic one). One place, so that the replay and the fold plan (fold_plan.hpp), which
// decides before replaying whether folding is exact, always agree.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/collective/plan.hpp"
#include "sim/config/run_spec.hpp"
#include "sim/graph/task.hpp"

namespace trainsim {

struct GroupCollective {
  GroupShape shape;                                 // members, members per node
  int tier = 0;                                     // the tier joining the group's ends
  const CollectiveAlgorithm* algorithm = nullptr;   // never null
};

// `group`: the ranks of the task's group, in member order (Mesh::group); `node_size`: devices
// per innermost domain (BuiltPlatform::node_size).
[[nodiscard]] GroupCollective group_collective(const RunSpec& run, int node_size, const Task& task,
                                               const std::vector<int>& group);

}  // namespace trainsim

namespace trainsim {

struct PreparedCollective;

// group_collective memoized for the replay's hot loop (it is asked once per member and collective
// task). A group of one dimension is named by its first member, so (dimension, kind, bytes, first
// member) gives the same answer as the group itself. `prepared` is left for the caller to fill:
// the member schedules of that choice (collective_cache.hpp).
class GroupCollectiveMemo {
 public:
  struct Entry {
    GroupCollective choice;
    const PreparedCollective* prepared = nullptr;
  };
  Entry& get(const RunSpec& run, int node_size, const Task& task, const std::vector<int>& group);

 private:
  struct Key {
    uint64_t bytes_bits;
    int first;
    uint8_t dim, kind;
    bool operator==(const Key& o) const {
      return bytes_bits == o.bytes_bits && first == o.first && dim == o.dim && kind == o.kind;
    }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return std::hash<uint64_t>()(k.bytes_bits ^ (static_cast<uint64_t>(k.first) << 20) ^
                                   (static_cast<uint64_t>(k.dim) << 52) ^ (static_cast<uint64_t>(k.kind) << 58));
    }
  };
  std::unordered_map<Key, Entry, KeyHash> entries_;
};

}  // namespace trainsim
