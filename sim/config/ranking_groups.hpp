// Ranking groups of a measurement set: rows that share a `group` name are runs of one model on
// one cluster that differ only in layout (and say so in their files), scored by how well the
// predicted order of their iteration times follows the measured order (sim/validate/ranking_score).
// A group needs at least two rows, and all its rows have one split and one hardware: a group is
// calibrate or check as a whole, and orders runs on one platform.
#pragma once
#include <string>
#include <vector>

#include "sim/config/measurements.hpp"

namespace trainsim {

struct RankingGroup {
  std::string name;
  Split split = Split::kCheck;
  std::string hardware;
  std::vector<size_t> rows;  // indices into MeasurementSet::rows, in file order
};

// The groups of `set`, in order of their first row; rows without a group belong to none. A
// group of one row, or one that mixes splits or hardware, is a ConfigError naming the file, the
// line and key of the offending row (`set` must come from one file: load_measurements checks
// each file on its own).
[[nodiscard]] std::vector<RankingGroup> ranking_groups(const MeasurementSet& set);

}  // namespace trainsim
