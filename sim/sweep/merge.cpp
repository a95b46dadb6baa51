#include "sim/sweep/merge.hpp"

#include <cassert>

#include "sim/core/error.hpp"
#include "sim/core/text_list.hpp"

namespace trainsim {

std::vector<PointResult> merge_point_results(const std::vector<SweepPoint>& grid,
                                             const std::vector<std::optional<std::string>>& texts,
                                             const std::string& dir) {
  assert(texts.size() == grid.size());
  std::vector<std::string> missing;
  for (size_t i = 0; i < grid.size(); ++i)
    if (!texts[i]) missing.push_back(point_label(grid[i]));
  if (!missing.empty())
    throw UserError("--merge " + dir + ": " + std::to_string(missing.size()) + " of " + std::to_string(grid.size()) +
                    " points have no result file yet: " + join_text(missing, "; ") +
                    "; run their jobs (jobs.txt, or the Slurm array) first");
  std::vector<PointResult> out;
  for (size_t i = 0; i < grid.size(); ++i) {
    const std::string source = dir + "/" + point_file_name(static_cast<int>(i));
    PointResult r = parse_point_result(*texts[i], source);
    if (r.point.index != grid[i].index || r.point.values != grid[i].values)
      throw UserError(source + ": holds the result of " + point_label(r.point) + ", but the manifest's point " +
                      std::to_string(i) + " is " + point_label(grid[i]) +
                      "; it comes from another sweep: emit the jobs into an empty folder");
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace trainsim
