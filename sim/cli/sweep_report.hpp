// What `trainsim sweep` prints and writes: the table of its points (sim/sweep/sweep_table) as an
// aligned text table on stdout, as CSV (--csv) and as markdown (--markdown), and with --search
// which strategy wins where. Deterministic: the same point results give byte-identical text
// (the command prints its timings on stderr), whether the points ran here or as emitted jobs.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "sim/sweep/point_result.hpp"
#include "sim/sweep/vary.hpp"

namespace trainsim {

struct SweepReport {
  std::string run_name;                // the run's name: field
  std::vector<std::string> sets;       // the sweep's --set overrides
  std::vector<VaryAxis> axes;
  bool zip = false;
  bool search = false;
  int top = 0;                         // --search: strategies replayed per point
  std::vector<PointResult> results;    // grid order
};

void print_sweep_table(std::ostream& out, const SweepReport& r);
void write_sweep_csv(std::ostream& out, const SweepReport& r);
void write_sweep_markdown(std::ostream& out, const SweepReport& r);

}  // namespace trainsim
