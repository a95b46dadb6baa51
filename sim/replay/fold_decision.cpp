#include "sim/replay/fold_decision.hpp"

#include <numeric>

#include "sim/core/child_process.hpp"
#include "sim/replay/engine.hpp"

namespace trainsim {

int replicas_kept(const StrategySpec& strategy) {
  return strategy.ep > 1 ? strategy.ep / std::gcd(strategy.ep, strategy.cp) : 1;
}

bool is_replayed(const Coord& c, const StrategySpec& strategy, const ReplayOptions& options) {
  if (options.fold_data_parallel && c[Dim::kDp] >= replicas_kept(strategy)) return false;
  return !(options.fold_tensor_parallel && c[Dim::kTp] != 0);
}

namespace {

std::string shared_nic(const RunSpec& run, const Mesh& mesh, const ReplayOptions& options) {
  for (size_t t = 0; t < run.platform.tiers.size(); ++t) {
    const int per_nic = run.platform.tiers[t].devices_per_nic;
    if (per_nic <= 1) continue;
    for (int first = 0; first < run.devices; first += per_nic) {
      const bool kept = is_replayed(mesh.coord(first), run.strategy, options);
      for (int r = first + 1; r < std::min(first + per_nic, run.devices); ++r)
        if (is_replayed(mesh.coord(r), run.strategy, options) != kept)
          return "tier '" + run.platform.tiers[t].name + "' shares a NIC between devices " + std::to_string(first) +
                 " and " + std::to_string(r) + ", of which one is folded away (its traffic would be missing)";
    }
  }
  return "";
}

}  // namespace

std::string fold_obstacle(const RunSpec& run, const Mesh& mesh, const ReplayOptions& options) {
  for (const TierSpec& tier : run.platform.tiers)
    if (tier.oversubscription > 1)
      return "tier '" + tier.name + "' is oversubscribed (" + std::to_string(tier.oversubscription) +
             ":1), so its uplinks carry the folded replicas' traffic too";
  return shared_nic(run, mesh, options);
}

Timeline replay_exact(const RunSpec& run, const RunGraph& graph, const Mesh& mesh, const ReplayOptions& options) {
  if (!options.fold_data_parallel && !options.fold_tensor_parallel) return replay(run, graph, mesh, options);
  std::string why = fold_obstacle(run, mesh, options);
  if (why.empty()) {
    const std::string trial = call_in_child([&] {
      ReplayOptions quiet = options;
      quiet.trace_devices.clear();
      quiet.link_stats = false;
      const Timeline t = replay(run, graph, mesh, quiet);
      return t.fold_exact ? std::string() : t.fold_note;
    });
    if (trial.empty()) return replay(run, graph, mesh, options);
    why = trial;
  }
  ReplayOptions unfolded = options;
  unfolded.fold_data_parallel = unfolded.fold_tensor_parallel = false;
  Timeline t = replay(run, graph, mesh, unfolded);
  t.fold_note = "folding declined (" + why + "): replayed unfolded";
  return t;
}

}  // namespace trainsim
