// Repeated runs: rows of a validation whose runs are the same (model, platform, strategy, batch,
// framework: everything but the row's name and comments) measured more than once. Their measured
// times differ by the measurement's own noise (another day, another allocation of nodes, a
// different second iteration), which no simulator can predict: the spread between them is a floor
// under the errors the report can expect. Pure functions, and the report sections that print them.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "sim/core/units.hpp"
#include "sim/validate/validation_run.hpp"

namespace trainsim {

struct RepeatSet {
  std::vector<std::string> ids;     // in file order
  std::vector<Seconds> measured;    // measured seconds per iteration, one per id
  // (slowest − fastest) / fastest × 100: how far apart the same run was measured, percent
  double spread_percent = 0;
};

// The sets of two or more rows whose RowResult::run_key and hardware are equal, in order of their
// first row; rows without a run_key are never repeats.
[[nodiscard]] std::vector<RepeatSet> find_repeats(const std::vector<RowResult>& rows);

// Markdown ("## Repeated runs" with one line per set) and text (stdout); both print nothing when
// `sets` is empty.
void write_repeats_markdown(std::ostream& out, const std::vector<RepeatSet>& sets);
void write_repeats_table(std::ostream& out, const std::vector<RepeatSet>& sets);

}  // namespace trainsim
