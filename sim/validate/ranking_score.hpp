// How well predictions order the runs of a ranking group (runs of one model on one cluster that
// differ only in layout): Spearman's rank correlation between predicted and measured iteration
// time (sim/search/rank_agreement), whether the measured fastest layout is predicted fastest,
// the iteration-time errors, and the peak-memory errors where memory was measured. Pure functions.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sim/config/measurements.hpp"
#include "sim/core/units.hpp"
#include "sim/validate/error_stats.hpp"
#include "sim/validate/validation_run.hpp"

namespace trainsim {

struct RankedRow {
  std::string id;
  Seconds measured_time = 0;
  Seconds predicted_time = 0;
  Bytes measured_memory = 0;   // 0 = not measured
  Bytes predicted_memory = 0;
};

struct GroupScore {
  std::string group;
  Split split = Split::kCheck;
  std::string hardware;
  int rows = 0;
  double spearman = 0;          // rho(predicted, measured) over the group's rows; 0 when either is constant
  std::string measured_best;    // id of the fastest measured row (the first in file order on a tie)
  std::string predicted_best;   // id of the fastest predicted row (likewise)
  // true when a row that is fastest as measured is also fastest as predicted (ties: any of them)
  bool best_predicted_best = false;
  ErrorSummary time_error;      // |iteration-time error %| over the rows
  ErrorSummary memory_error;    // |peak-memory error %| over the rows with measured memory (count 0: none)
  std::vector<std::pair<std::string, double>> time_errors;    // (id, signed error %) per row
  std::vector<std::pair<std::string, double>> memory_errors;  // likewise, rows with measured memory only
};

// One group's score; `rows` has at least two entries (ranking_groups guarantees it).
[[nodiscard]] GroupScore score_group(const std::string& group, Split split, const std::string& hardware,
                                     const std::vector<RankedRow>& rows);

// The groups among validated rows, in order of their first row; a group with fewer than two rows
// validated (e.g. under --only) is left out, since one row orders nothing.
[[nodiscard]] std::vector<GroupScore> score_ranking(const std::vector<RowResult>& results);

// Over the groups of one split (or all): mean Spearman, and how many groups' measured best is
// predicted best.
struct RankingSummary {
  std::string key;              // "calibrate", "check", "all"
  int groups = 0;
  double mean_spearman = 0;
  int best_hits = 0;
  ErrorSummary time_error;      // over every row of those groups
  ErrorSummary memory_error;    // over every row with measured memory
};
[[nodiscard]] std::vector<RankingSummary> summarize_ranking(const std::vector<GroupScore>& scores);

}  // namespace trainsim
