// `trainsim bench-formulas --platform P`: how many strategies per second the closed-form formulas
// evaluate on one core. Draws N distinct valid strategies (the `fit` design, sim/cli/fit_design),
// extracts each one's inputs once (kernel roofline per block, collective costs, memory: timed
// separately), then evaluates the iteration time and every stage's peak memory of all of them,
// round after round, for at least --seconds of CPU time; prints both rates per CPU second.
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <set>
#include <string>

#include "sim/analytic/iteration_model.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/fit_design.hpp"
#include "sim/cli/theta_file.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"

namespace trainsim {
namespace {

// CPU seconds of this (single-threaded) process: on a shared machine wall time also counts the
// time other processes hold the core.
double cpu_now() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }
double seconds_since(double t) { return cpu_now() - t; }

int run_bench_formulas(const ParsedArgs& a) {
  if (!a.has("platform")) throw UserError("bench-formulas: --platform NAME is required (see trainsim list)");
  const std::string platform = a.get("platform");
  int strategies = 0;
  double min_seconds = 0;
  try {
    strategies = std::stoi(a.get("strategies", "1000"));
    min_seconds = std::stod(a.get("seconds", "2"));
  } catch (const std::exception&) {
    throw UserError("bench-formulas: --strategies takes a whole number and --seconds a number");
  }
  if (strategies < 1 || !(min_seconds > 0) || !std::isfinite(min_seconds))
    throw UserError("bench-formulas: --strategies takes a whole number >= 1 and --seconds a finite number > 0 (got " +
                    a.get("strategies", "1000") + " and " + a.get("seconds", "2") + ")");
  const ThetaFile theta = load_theta_for(load_platform(platform), "");
  std::vector<DesignPoint> points;
  std::set<std::string> seen;  // the draw may repeat a strategy: keep each once
  for (const DesignPoint& p : sample_design(platform, strategies, 7))
    if (seen.insert(p.base + " " + p.label()).second) points.push_back(p);
  const double extract_start = cpu_now();
  std::vector<IterationInputs> inputs;
  for (const DesignPoint& p : points) inputs.push_back(extract_iteration_inputs(load_run(p.base, p.sets)));
  const double extract = seconds_since(extract_start);
  double checksum = 0;
  long evaluations = 0;
  const double eval_start = cpu_now();
  do {
    for (const IterationInputs& in : inputs) {
      checksum += estimate_iteration(in, theta.theta).iteration_time;
      for (int s = 0; s < in.shape.stages; ++s) checksum += 1e-12 * stage_peak_memory(in, s);
      ++evaluations;
    }
  } while (seconds_since(eval_start) < min_seconds);
  const double eval = seconds_since(eval_start);
  std::printf("strategies   %zu distinct (platform %s, dense and MoE)\n", inputs.size(), platform.c_str());
  std::printf("extraction   %.0f strategies per CPU second (load + kernel roofline + collectives + memory, once each)\n",
              inputs.size() / extract);
  std::printf("evaluation   %.0f evaluations per CPU second on one core (iteration time + peak memory of every "
              "stage; %ld in %.2f CPU s; checksum %.6g)\n", evaluations / eval, evaluations, eval, checksum);
  return 0;
}

}  // namespace

Command bench_formulas_command() {
  CommandSpec spec;
  spec.name = "bench-formulas";
  spec.usage = "--platform NAME [--strategies N] [--seconds S]";
  spec.summary = "measure how many strategies per second the closed-form formulas evaluate";
  spec.options = {{"platform", "NAME", "platform preset (or path) the strategies run on (required)"},
                  {"strategies", "N", "strategies to draw (default 1000; repeats are dropped)"},
                  {"seconds", "S", "evaluate all of them round after round for at least S CPU seconds (default 2)"}};
  spec.max_positionals = 0;
  return {spec, run_bench_formulas};
}

}  // namespace trainsim
