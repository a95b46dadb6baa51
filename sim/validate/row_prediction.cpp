#include "sim/validate/row_prediction.hpp"

#include <chrono>
#include <sstream>

#include "sim/analytic/device_memory.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/child_process.hpp"
#include "sim/graph/builder.hpp"
#include "sim/replay/fold_plan.hpp"
#include "sim/report/metrics.hpp"

namespace trainsim {
// Runs in the child: the same steps as `trainsim simulate`, without the memory gate (a
// prediction is still worth reporting for a run the memory model thinks does not fit).
std::string simulate_row(const std::filesystem::path& run_file, const std::vector<std::string>& overrides) {
  const RunSpec run = load_run(run_file, overrides);
  const auto memory = stage_memory(run);
  ReplayOptions options;
  options.collectives = CollectiveMode::kBulk;
  options.fold_data_parallel = run.strategy.dp > replicas_kept(run.strategy);
  options.fold_tensor_parallel = run.strategy.tp > 1;
  const RunGraph graph = build_run_graph(run);
  const Timeline timeline = replay_exact(run, graph, Mesh(run.strategy), options);
  const RunMetrics metrics = compute_metrics(run, timeline);
  std::ostringstream out;
  out.precision(17);
  out << metrics.iteration_time << ' ' << metrics.tflops_per_device << ' ' << metrics.mfu << ' '
      << peak_memory(memory).total() << ' ' << run.platform.accelerator.memory_capacity << ' '
      << metrics.devices_replayed << ' ' << (timeline.folded ? 1 : 0);
  for (Seconds t : metrics.breakdown) out << ' ' << t;
  return out.str();
}

RowPrediction predict_row(const std::filesystem::path& run_file, const std::vector<std::string>& overrides) {
  const auto start = std::chrono::steady_clock::now();
  RowPrediction p = parse_row_prediction(call_in_child([&] { return simulate_row(run_file, overrides); }), run_file);
  p.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return p;
}

RowPrediction parse_row_prediction(const std::string& text, const std::filesystem::path& run_file) {
  RowPrediction p;
  std::istringstream in(text);
  int folded = 0;
  in >> p.iteration_time >> p.tflops_per_device >> p.mfu >> p.peak_memory >> p.memory_capacity >>
      p.devices_replayed >> folded;
  for (Seconds& t : p.breakdown) in >> t;
  if (!in) throw std::runtime_error("simulation of " + run_file.string() + " returned '" + text + "'");
  p.folded = folded != 0;
  return p;
}

}  // namespace trainsim
