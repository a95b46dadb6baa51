// The files of a sweep split into jobs (`trainsim sweep --emit-jobs DIR`): the manifest that
// defines the sweep, jobs.txt, sweep.sbatch and merge.sh (sim/sweep/job_scripts), and the point
// result files the jobs write (point-000.result, ...) that `--merge DIR` reads back.
#pragma once
#include <string>
#include <vector>

#include "sim/sweep/point_result.hpp"
#include "sim/sweep/sweep_spec.hpp"

namespace trainsim {

// Writes the manifest and the job scripts into `dir` (created if missing). Refuses (UserError) a
// folder that already holds point results, so results of two sweeps never mix.
void emit_sweep_jobs(const SweepSpec& spec, const std::string& dir, int points);

// The manifest of `dir`; UserError when there is none.
[[nodiscard]] SweepSpec read_sweep_manifest(const std::string& dir);

// Writes point `index`'s result text into `dir` (atomically, through write_output_file).
void write_point_result(const std::string& dir, int index, const std::string& text);

// Every point's result of `dir`, checked against the grid of its manifest, in grid order.
[[nodiscard]] std::vector<PointResult> read_point_results(const SweepSpec& spec, const std::string& dir);

}  // namespace trainsim
