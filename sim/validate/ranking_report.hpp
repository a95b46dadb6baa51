// The ranking section of a validation report: one line per ranking group (Spearman, whether the
// measured best layout is predicted best, time and memory errors) and the summaries per split, as
// text (stdout), Markdown (beside the per-run table of REPORT.md) and CSV. Deterministic.
#pragma once
#include <ostream>
#include <vector>

#include "sim/validate/ranking_score.hpp"

namespace trainsim {

void write_ranking_table(std::ostream& out, const std::vector<GroupScore>& scores);
// The group table, the per-split summary, and every grouped row with its measured and predicted
// rank and memory (`results`: the validated rows, grouped or not).
void write_ranking_markdown(std::ostream& out, const std::vector<GroupScore>& scores,
                            const std::vector<RowResult>& results);
// group,split,hardware,rows,spearman,measured_best,predicted_best,best_predicted_best,
// time_mean_abs_error_pct,time_max_abs_error_pct,memory_rows,memory_mean_abs_error_pct,memory_max_abs_error_pct
void write_ranking_csv(std::ostream& out, const std::vector<GroupScore>& scores);

}  // namespace trainsim
