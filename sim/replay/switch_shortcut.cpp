#include "sim/replay/switch_shortcut.hpp"

#include <map>
#include <set>
#include <tuple>

#include "sim/platform/build.hpp"
#include "sim/platform/tier_layout.hpp"
#include "sim/replay/collective_cache.hpp"
#include "sim/replay/collective_choice.hpp"
#include "sim/replay/fold_plan.hpp"

namespace trainsim {
namespace {

// The collective tasks of a stage that differ in what they send, and the pipeline offsets of its
// sends and receives.
struct StageTraffic {
  std::vector<const Task*> collectives;
  std::set<int> peer_offsets;
};

StageTraffic stage_traffic(const StageGraph& stage) {
  StageTraffic out;
  std::set<std::tuple<int, int, double, int>> seen;  // (dim, kind, bytes, stream)
  for (TaskId t = 0; t < stage.size(); ++t) {
    const Task& task = stage.task(t);
    if (task.kind == TaskKind::kSend || task.kind == TaskKind::kRecv) out.peer_offsets.insert(task.peer_offset);
    if (task.kind != TaskKind::kCollective) continue;
    if (seen.insert({static_cast<int>(task.group), static_cast<int>(task.collective), task.bytes,
                     static_cast<int>(task.stream)})
            .second)
      out.collectives.push_back(&task);
  }
  return out;
}

// Who uses each tier: `other` once any transfer that is not an exchange with the switch
// crosses it; `streams` the streams whose exchanges with the switch cross it; `pair_streams` the
// streams whose member-to-member transfers cross it, `pipeline` once a pipeline transfer does, and
// `fan` once a member of some collective sends to, or receives from, more than one peer on it in
// one batch.
struct TierUse {
  bool other = false;
  std::set<int> streams;
  std::set<int> pair_streams;
  bool pipeline = false;
  bool fan = false;
};

class TrafficScan {
 public:
  TrafficScan(const RunSpec& run, const Mesh& mesh)
      : run_(run), mesh_(mesh), sizes_(tier_domain_sizes(run.platform, run.devices)), use_(sizes_.size()) {}

  void collective(int rank, const Task& task) {
    const std::vector<int> group = mesh_.group(rank, task.group);
    if (group.size() < 2) return;  // the replay moves nothing
    const GroupCollective choice = group_collective(run_, sizes_.front(), task, group);
    const PreparedCollective& plan = cache_.get(*choice.algorithm, task.collective, choice.shape, task.bytes);
    const auto member = static_cast<size_t>(std::find(group.begin(), group.end(), rank) - group.begin());
    const MemberSchedule& mine = plan.members[member];
    for (const auto* batch : {&mine.bulk_sends, &mine.bulk_recvs}) {
      int peers = 0;
      for (const PeerBytes& pb : *batch) peers += pb.peer == kSwitchMember ? 0 : 1;
      if (peers > 1) use_[static_cast<size_t>(choice.tier)].fan = true;
    }
    for (const auto* steps : {&mine.step_sends, &mine.step_recvs})
      for (const auto& step : *steps)
        for (const PeerBytes& pb : step) {
          if (pb.peer == kSwitchMember) {
            use_[static_cast<size_t>(choice.tier)].streams.insert(static_cast<int>(task.stream));
          } else {
            const int peer = group[static_cast<size_t>(pb.peer)];
            TierUse& use = use_[static_cast<size_t>(tier_between_sizes(sizes_, rank, peer))];
            use.other = true;
            use.pair_streams.insert(static_cast<int>(task.stream));
          }
        }
  }

  void pipeline(int rank, int offset) {
    const int stages = mesh_.degree(Dim::kPp);
    const int stage = mesh_.coord(rank)[Dim::kPp];
    const int peer = mesh_.rank_at_stage(rank, ((stage + offset) % stages + stages) % stages);
    TierUse& use = use_[static_cast<size_t>(tier_between_sizes(sizes_, rank, peer))];
    use.other = true;
    use.pipeline = true;
  }

  [[nodiscard]] const std::vector<TierUse>& use() const { return use_; }

 private:
  const RunSpec& run_;
  const Mesh& mesh_;
  std::vector<int> sizes_;
  std::vector<TierUse> use_;
  CollectiveCache cache_;
};

bool folds(const Mesh& mesh, const RunSpec& run, const ReplayOptions& options) {
  const std::vector<int> owner = fold_owners(mesh, run.strategy, options);
  for (size_t r = 0; r < owner.size(); ++r)
    if (owner[r] != static_cast<int>(r)) return true;
  return false;
}

// Every tier's use by the run's transfers; empty when the shortcuts are off.
std::vector<TierUse> tier_use(const RunSpec& run, const RunGraph& graph, const Mesh& mesh, const ReplayOptions& options) {
  if (!options.analytic_switch || options.link_stats || folds(mesh, run, options)) return {};
  std::vector<StageTraffic> stages;
  for (const StageGraph& stage : graph.stages) stages.push_back(stage_traffic(stage));
  TrafficScan scan(run, mesh);
  for (int rank = 0; rank < run.devices; ++rank) {
    const StageTraffic& traffic = stages[static_cast<size_t>(mesh.coord(rank)[Dim::kPp])];
    for (const Task* task : traffic.collectives) scan.collective(rank, *task);
    for (int offset : traffic.peer_offsets) scan.pipeline(rank, offset);
  }
  return scan.use();
}

// Topologies where a device's transfers to its peers cross only links of its own and of the
// peer (its port and theirs, or their pair link): nothing of a third device.
bool own_links_only(Topology t) { return t == Topology::kNvswitch || t == Topology::kClos || t == Topology::kFullMesh; }

}  // namespace

ShortcutTiers shortcut_tiers(const RunSpec& run, const RunGraph& graph, const Mesh& mesh, const ReplayOptions& options) {
  const size_t tiers = run.platform.tiers.size();
  ShortcutTiers out{std::vector<uint8_t>(tiers, 0), std::vector<uint8_t>(tiers, 0)};
  const std::vector<TierUse> uses = tier_use(run, graph, mesh, options);
  const bool bulk = options.collectives == CollectiveMode::kBulk;
  for (size_t t = 0; t < uses.size(); ++t) {
    const TierUse& use = uses[t];
    const TierSpec& tier = run.platform.tiers[t];
    out.switch_exchanges[t] = tier.in_network_reduction && !use.other && use.streams.size() == 1 ? 1 : 0;
    out.pairs[t] = bulk && own_links_only(tier.topology) && use.streams.empty() && !use.pipeline && !use.fan &&
                           use.pair_streams.size() == 1
                       ? 1
                       : 0;
  }
  return out;
}

}  // namespace trainsim
