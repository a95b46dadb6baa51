// The sweep's figure, as a gnuplot script writing one SVG: a panel per varied key with the chosen
// metric against that key's values (in the order given, one line per combination of the other
// keys; with --zip one line through every point), and below them the breakdown per point stacked
// (compute, exposed TP/CP/EP/DP communication, bubble; terms that are zero everywhere left out).
// Pure: the caller runs gnuplot (sim/report/gnuplot).
#pragma once
#include <string>
#include <vector>

#include "sim/sweep/point_result.hpp"
#include "sim/sweep/vary.hpp"

namespace trainsim {

enum class SweepMetric { kIterationTime, kTokensPerSecond, kMfu };
// "iteration_s", "tokens_per_s" or "mfu"; throws UserError naming the valid ones otherwise.
[[nodiscard]] SweepMetric parse_sweep_metric(const std::string& text);

struct SweepPlotInput {
  std::vector<VaryAxis> axes;
  bool zip = false;
  std::vector<PointResult> results;  // grid order
  SweepMetric metric = SweepMetric::kIterationTime;
  std::string title;                 // e.g. the run's name
};

[[nodiscard]] std::string sweep_plot_script(const SweepPlotInput& in, const std::string& svg_path);

}  // namespace trainsim
