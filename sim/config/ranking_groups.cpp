// Measurement rows -> ranking groups, with the rules a group must keep.
#include "sim/config/ranking_groups.hpp"

#include <algorithm>

#include "sim/core/error.hpp"

namespace trainsim {
namespace {

std::string key_of(size_t row) { return "measurements." + std::to_string(row) + ".group"; }

// The first row of `g` sets its split and hardware; every later row must agree.
void check_members_agree(const MeasurementSet& set, const RankingGroup& g) {
  for (size_t i : g.rows) {
    const Measurement& m = set.rows[i];
    if (m.split != g.split)
      throw ConfigError(set.file, m.line, key_of(i),
                        std::string("mixes splits: row '") + m.id + "' is " + split_name(m.split) + " but row '" +
                            set.rows[g.rows.front()].id + "' of the same group is " + split_name(g.split),
                        m.group, "one split for every row of a group (a group is calibrate or check as a whole)");
    if (m.hardware != g.hardware)
      throw ConfigError(set.file, m.line, key_of(i),
                        "mixes hardware: row '" + m.id + "' runs on " + m.hardware + " but row '" +
                            set.rows[g.rows.front()].id + "' of the same group on " + g.hardware,
                        m.group, "one hardware for every row of a group (a group orders layouts on one cluster)");
  }
}

}  // namespace

std::vector<RankingGroup> ranking_groups(const MeasurementSet& set) {
  std::vector<RankingGroup> groups;
  for (size_t i = 0; i < set.rows.size(); ++i) {
    const Measurement& m = set.rows[i];
    if (m.group.empty()) continue;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const RankingGroup& g) { return g.name == m.group; });
    if (it == groups.end()) it = groups.insert(groups.end(), RankingGroup{m.group, m.split, m.hardware, {}});
    it->rows.push_back(i);
  }
  for (const auto& g : groups) {
    if (g.rows.size() < 2) {
      const Measurement& m = set.rows[g.rows.front()];
      throw ConfigError(set.file, m.line, key_of(g.rows.front()),
                        "names a group no other row has; a ranking group needs at least two rows to order",
                        m.group, "the group of another row, or no `group` key");
    }
    check_members_agree(set, g);
  }
  return groups;
}

}  // namespace trainsim
