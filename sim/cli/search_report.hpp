// What `trainsim search` prints: the counts of the space, the ranked table (formula time, replayed
// time and their difference, memory, MFU, tokens/s), the baseline comparison, and the same as
// JSON for scripts. Both are deterministic (no timings: the command prints those on stderr).
#pragma once
#include <optional>
#include <ostream>
#include <vector>

#include "sim/cli/replay_terms.hpp"
#include "sim/search/search.hpp"

namespace trainsim {

struct SearchRow {
  const RankedStrategy* strategy = nullptr;
  int formula_rank = 0;                 // 1-based rank under the formulas
  std::optional<ReplayTerms> replay;    // when replayed
  double time() const { return replay ? replay->iteration_time : strategy->estimate.iteration_time; }
};

struct BaselineRow {
  RankedStrategy strategy;              // the expert's run, its formulas' terms and memory
  std::optional<ReplayTerms> replay;
  double capacity = 0;                  // device memory, bytes
  double time() const { return replay ? replay->iteration_time : strategy.estimate.iteration_time; }
  bool fits() const { return strategy.peak_memory <= capacity; }
};

struct SearchReport {
  const SearchOutcome* outcome = nullptr;
  std::vector<SearchRow> rows;          // best first (by replay when replayed)
  std::optional<BaselineRow> baseline;
  std::string space;                    // restrictions, "" for the whole space
};

void print_search_table(std::ostream& out, const SearchReport& r);
void print_search_json(std::ostream& out, const SearchReport& r);

}  // namespace trainsim
