#include "sim/replay/collective_choice.hpp"

#include <algorithm>
#include <cstring>

#include "sim/platform/build.hpp"

namespace trainsim {
namespace {

// Members per node inside this group (groups are laid out node by node in the mesh order).
int group_node_size(int node_size, const std::vector<int>& group) {
  const int node = std::max(1, node_size);
  int count = 0;
  for (int r : group) count += (r / node == group.front() / node) ? 1 : 0;
  return std::max(1, count);
}

}  // namespace

GroupCollective group_collective(const RunSpec& run, int node_size, const Task& task, const std::vector<int>& group) {
  GroupCollective out;
  out.shape = GroupShape{static_cast<int>(group.size()), group_node_size(node_size, group)};
  // The tier joining the group's ends is the one its transfers use (groups are contiguous in it).
  out.tier = tier_between(run.platform, run.devices, group.front(), group.back());
  auto it = run.collectives.find(collective_name(task.group));
  if (it != run.collectives.end()) {
    out.algorithm = &find_collective(it->second);
    return out;
  }
  const TierSpec& t = run.platform.tiers[static_cast<size_t>(out.tier)];
  FabricHints hints;
  hints.in_network_reduction = t.in_network_reduction;
  hints.direct_links = private_pair_links(t);
  out.algorithm = &choose_collective(task.collective, out.shape, task.bytes, hints);
  return out;
}

GroupCollectiveMemo::Entry& GroupCollectiveMemo::get(const RunSpec& run, int node_size, const Task& task,
                                                     const std::vector<int>& group) {
  Key key{};
  std::memcpy(&key.bytes_bits, &task.bytes, sizeof key.bytes_bits);
  key.first = group.front();
  key.dim = static_cast<uint8_t>(task.group);
  key.kind = static_cast<uint8_t>(task.collective);
  auto it = entries_.find(key);
  if (it == entries_.end()) it = entries_.emplace(key, Entry{group_collective(run, node_size, task, group), nullptr}).first;
  return it->second;
}

}  // namespace trainsim
