// The predicted-vs-measured scatter plot of a validation, drawn by gnuplot (run as a separate
// program with a generated script) as SVG: log-log axes, one colour per hardware, circles for
// calibrate rows and triangles for check rows, the y = x line and a ±10 % band.
#pragma once
#include <string>
#include <vector>

#include "sim/validate/validation_run.hpp"

namespace trainsim {

// The gnuplot script (data inline as datablocks) that writes `svg_path`. Pure.
[[nodiscard]] std::string predicted_vs_measured_script(const std::vector<RowResult>& rows,
                                                       const std::string& svg_path);

// Runs gnuplot on the script. Returns "" on success, else why no plot was made (gnuplot not on
// PATH, or it failed); the caller warns and goes on.
[[nodiscard]] std::string plot_predicted_vs_measured(const std::vector<RowResult>& rows, const std::string& svg_path);

}  // namespace trainsim
