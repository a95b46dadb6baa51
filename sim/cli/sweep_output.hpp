// The outputs of a sweep, the same for a local sweep and a --merge: the table on stdout, and the
// --csv, --markdown and --plot files (each through write_output_file: atomic, write errors exit 1).
#pragma once
#include <vector>

#include "sim/cli/args.hpp"
#include "sim/sweep/point_result.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace trainsim {

void write_sweep_outputs(const ParsedArgs& a, const SweepSpec& spec, const std::vector<PointResult>& results);

}  // namespace trainsim
