#include "sim/replay/fold_plan.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>

#include "sim/platform/build.hpp"
#include "sim/platform/tier_layout.hpp"
#include "sim/replay/collective_choice.hpp"
#include "sim/replay/engine.hpp"

namespace trainsim {

// An EP group spans ep expert indices, expert_span / dp of them (cp, tp x cp when folded) in each replica.
int replicas_kept(const StrategySpec& strategy) {
  return strategy.ep > 1 ? strategy.ep / std::gcd(strategy.ep, strategy.expert_span() / strategy.dp) : 1;
}

std::vector<int> fold_owners(const Mesh& mesh, const StrategySpec& strategy, const ReplayOptions& options) {
  const int kept = replicas_kept(strategy);
  std::vector<int> owner(static_cast<size_t>(mesh.size()));
  for (int r = 0; r < mesh.size(); ++r) {
    Coord c = mesh.coord(r);
    if (options.fold_data_parallel) c.at[static_cast<int>(Dim::kDp)] %= kept;
    if (options.fold_tensor_parallel) c.at[static_cast<int>(Dim::kTp)] = 0;
    owner[static_cast<size_t>(r)] = mesh.rank(c);
  }
  return owner;
}

namespace {

std::string platform_obstacle(const RunSpec& run, const std::vector<int>& owner) {
  for (size_t t = 0; t < run.platform.tiers.size(); ++t) {
    const TierSpec& tier = run.platform.tiers[t];
    if (tier.oversubscription > 1) {
      std::ostringstream ratio;  // shortest form: 2, 1.5
      ratio << tier.oversubscription;
      return "tier '" + tier.name + "' is oversubscribed (" + ratio.str() +
             ":1), so its uplinks carry the folded replicas' traffic too";
    }
    if (tier.devices_per_nic <= 1) continue;
    for (int first = 0; first < run.devices; first += tier.devices_per_nic)
      for (int r = first + 1; r < std::min(first + tier.devices_per_nic, run.devices); ++r)
        if ((owner[static_cast<size_t>(r)] == r) != (owner[static_cast<size_t>(first)] == first))
          return "tier '" + tier.name + "' shares a NIC between devices " + std::to_string(first) + " and " +
                 std::to_string(r) + ", of which one is folded away (its traffic would be missing)";
  }
  return "";
}

// Why a collective on `group` (ranks in member order) does not mirror exactly ("" if it does).
std::string group_obstacle(const std::vector<int>& owner, const std::vector<int>& tier_sizes, int tier,
                           const std::vector<int>& group) {
  size_t replayed = 0;
  while (replayed < group.size() && owner[static_cast<size_t>(group[replayed])] == group[replayed]) ++replayed;
  if (replayed == group.size()) return "";
  if (group.size() % replayed != 0) return "its replayed members do not divide it evenly";
  for (size_t m = 0; m < group.size(); ++m)
    if (owner[static_cast<size_t>(group[m])] != group[m % replayed])
      return "its folded members do not mirror its replayed ones in member order";
  if (tier > 0) {
    std::set<int> domains;  // each member alone in its domain of the tier below
    for (int r : group) domains.insert(r / tier_sizes[static_cast<size_t>(tier - 1)]);
    if (domains.size() != group.size()) return "its members are spread unevenly over the tiers";
  }
  return "";
}

// The first collective of the run whose group has folded members and does not mirror exactly.
std::string collective_obstacle(const RunSpec& run, const RunGraph& graph, const Mesh& mesh,
                                const std::vector<int>& owner) {
  const std::vector<int> sizes = tier_domain_sizes(run.platform, run.devices);
  std::set<std::tuple<int, int, std::string_view>> seen;  // (rank, dim, algorithm) already checked
  for (int rank = 0; rank < mesh.size(); ++rank) {
    if (owner[static_cast<size_t>(rank)] != rank) continue;
    const StageGraph& stage = graph.stages[static_cast<size_t>(mesh.coord(rank)[Dim::kPp])];
    std::vector<std::vector<int>> groups(kDims);
    for (TaskId t = 0; t < stage.size(); ++t) {
      const Task& task = stage.task(t);
      if (task.kind != TaskKind::kCollective) continue;
      auto& group = groups[static_cast<size_t>(task.group)];
      if (group.empty()) group = mesh.group(rank, task.group);
      if (group.size() < 2) continue;
      const auto folded = [&] {
        return std::any_of(group.begin(), group.end(), [&](int r) { return owner[static_cast<size_t>(r)] != r; });
      };
      const GroupCollective choice = group_collective(run, sizes.front(), task, group);
      // A slowed collective's flows carry a rate bound (flow_batch.hpp), which SimGrid 3.32 drops on
      // host-to-host transfers; those to folded peers over private pair links carry their bytes
      // stretched instead (exact: nothing else shares the link), but not over shared links.
      if (task.pipelined && run.platform.accelerator.overlap_comm_slowdown > 1 && folded() &&
          !private_pair_links(run.platform.tiers[static_cast<size_t>(choice.tier)]))
        return "the " + std::string(to_string(task.group)) + " group of device " + std::to_string(rank) +
               " has folded members and collectives pipelined with GEMMs, slowed by the accelerator's "
               "overlap_comm_slowdown, which SimGrid 3.32 cannot bound on transfers to folded peers over shared links";
      const std::string_view name = choice.algorithm->name;
      if (!seen.insert({rank, static_cast<int>(task.group), name}).second) continue;
      if (!folded()) continue;
      std::string why = group_obstacle(owner, sizes, choice.tier, group);
      if (why.empty() && name != "ring" && name != "direct" && name != "nvls")
        why = "its " + std::string(name) + " algorithm treats members differently by their index";
      if (why.empty()) continue;
      return "the " + std::string(to_string(task.group)) + " group of device " + std::to_string(rank) + " (" +
             std::string(name) + ") has folded members and " + why;
    }
  }
  return "";
}

}  // namespace

std::string fold_obstacle(const RunSpec& run, const RunGraph& graph, const Mesh& mesh, const ReplayOptions& options) {
  const std::vector<int> owner = fold_owners(mesh, run.strategy, options);
  std::string why = platform_obstacle(run, owner);
  return why.empty() ? collective_obstacle(run, graph, mesh, owner) : why;
}

Timeline replay_exact(const RunSpec& run, const RunGraph& graph, const Mesh& mesh, const ReplayOptions& options) {
  if (!options.fold_data_parallel && !options.fold_tensor_parallel) return replay(run, graph, mesh, options);
  const std::string why = fold_obstacle(run, graph, mesh, options);
  if (why.empty()) return replay(run, graph, mesh, options);
  ReplayOptions unfolded = options;
  unfolded.fold_data_parallel = unfolded.fold_tensor_parallel = false;
  Timeline t = replay(run, graph, mesh, unfolded);
  t.fold_note = "folding declined (" + why + "): replayed unfolded";
  return t;
}

}  // namespace trainsim
