// The sweep's result table as cells (header + one row per point), before any file format: the
// varied values, the strategy, iteration time, tokens/s, MFU, memory, and the breakdown (compute,
// exposed communication per dimension, bubble). And, for --search, which strategy wins where.
// Pure and deterministic: no timings.
#pragma once
#include <string>
#include <vector>

#include "sim/sweep/point_result.hpp"
#include "sim/sweep/vary.hpp"

namespace trainsim {

struct SweepTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

enum class TableStyle {
  kReadable,  // for people (terminal, markdown): rounded, units in the header, compute in one column
  kData,      // for programs (CSV): six significant digits, every term in its own column, status
};

[[nodiscard]] SweepTable sweep_table(const std::vector<VaryAxis>& axes, const std::vector<PointResult>& results,
                                     TableStyle style);

// The winning strategies in order of first appearance, each with the points where it wins.
struct StrategyWins {
  std::string strategy;
  std::vector<const PointResult*> points;
};
[[nodiscard]] std::vector<StrategyWins> strategy_wins(const std::vector<PointResult>& results);
// One line per winning strategy: "tp4 pp2 ...  wins at k=v1; k=v2" (a point of several keys in
// parentheses: "(k=v1, j=w1); (k=v2, j=w1)"), for the co-design question.
[[nodiscard]] std::vector<std::string> strategy_win_lines(const std::vector<PointResult>& results);

}  // namespace trainsim
