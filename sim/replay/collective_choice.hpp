// How the replay runs one collective task on its group: the group's shape (members, members
// per node), the tier its transfers use and the algorithm (the run's `collectives:` choice or
// the automatic one). One place, so that the replay and the fold plan (fold_plan.hpp), which
// decides before replaying whether folding is exact, always agree.
#pragma once
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
