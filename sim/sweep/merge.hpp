// Merging the result files of a sweep's emitted jobs: one result per point of the grid, each
// checked to be that point's (same index, same keys and values), in grid order. Pure: the caller
// reads the files.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/sweep/grid.hpp"
#include "sim/sweep/point_result.hpp"

namespace trainsim {

// texts[i] is the content of point i's result file, or nullopt when there is none; `dir` names
// the folder in messages. Throws UserError listing every point without a result, or naming a
// result that belongs to another point or another sweep.
[[nodiscard]] std::vector<PointResult> merge_point_results(const std::vector<SweepPoint>& grid,
                                                           const std::vector<std::optional<std::string>>& texts,
                                                           const std::string& dir);

}  // namespace trainsim
