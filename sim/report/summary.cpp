#include "sim/report/summary.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <string>

#include "sim/core/number_text.hpp"
#include "sim/report/run_description.hpp"

namespace trainsim {
namespace {

std::string summary_text(const char* f, double v) { return format_with(f, v); }

// Column names of the per-stage table, in TimeCategory order.
constexpr const char* kStageColumns[kTimeCategories] = {"fwd",    "bwd",    "recomp", "optim",  "exp.tp", "exp.cp",
                                                        "exp.ep", "exp.dp", "bubble", "exp.pp", "host",   "idle"};

// Mean over replayed devices of each stage, for the per-stage table.
void write_stage_table(std::ostream& out, const SimulationReport& r) {
  const int stages = r.run.strategy.pp;
  std::vector<std::array<double, kTimeCategories>> sum(static_cast<size_t>(stages));
  std::vector<int> count(static_cast<size_t>(stages), 0);
  for (const auto& d : r.timeline.devices) {
    for (int c = 0; c < kTimeCategories; ++c) sum[static_cast<size_t>(d.stage)][static_cast<size_t>(c)] += d.time[static_cast<size_t>(c)];
    count[static_cast<size_t>(d.stage)]++;
  }
  out << "\nper stage (seconds)    ";  // as wide as a row's "  stage N" and its padding
  for (const char* c : kStageColumns) out << std::setw(9) << c;
  out << "\n";
  for (int s = 0; s < stages; ++s) {
    if (count[static_cast<size_t>(s)] == 0) continue;
    out << "  stage " << s << std::string(s < 10 ? 14 : 13, ' ');
    for (int c = 0; c < kTimeCategories; ++c) out << summary_text(" %8.4f", sum[static_cast<size_t>(s)][static_cast<size_t>(c)] / count[static_cast<size_t>(s)]);
    out << "\n";
  }
}

}  // namespace

void write_summary(std::ostream& out, const SimulationReport& r) {
  const RunMetrics& m = r.metrics;
  describe_run(out, r.run);
  const DeviceMemory& peak = peak_memory(r.memory);
  out << "\niteration time     " << summary_text("%.4f s", m.iteration_time) << "\n";
  out << "throughput         " << summary_text("%.0f tokens/s", m.tokens_per_s) << " (" << summary_text("%.1f", m.tokens_per_s / m.devices)
      << " per device)\n";
  out << "per device         " << summary_text("%.1f TFLOP/s", m.tflops_per_device) << " (Narayanan et al. counting), MFU "
      << summary_text("%.1f%%", 100 * m.mfu) << "\n";
  out << "peak memory        " << human_bytes(peak.total()) << " of " << human_bytes(r.run.platform.accelerator.memory_capacity)
      << " (stage " << peak.stage << ")\n";
  out << "replay             " << m.devices_replayed << " of " << m.devices << " devices"
      << (r.timeline.folded && r.options.fold_data_parallel ? " (dp replicas folded)" : "")
      << (r.timeline.folded && r.options.fold_tensor_parallel ? " (tp ranks folded)" : "") << ", collectives in "
      << (r.options.collectives == CollectiveMode::kStep ? "step" : "bulk") << " mode, " << r.timeline.tasks_executed
      << " tasks, " << r.timeline.wakeups << " wake-ups, " << summary_text("%.2f s wall", r.wall_seconds) << "\n";
  if (!r.timeline.fold_note.empty()) out << "fold               " << r.timeline.fold_note << "\n";
  out << "\nbreakdown (mean over devices)   seconds    share\n";
  for (int c = 0; c < kTimeCategories; ++c) {
    const double v = m.breakdown[static_cast<size_t>(c)];
    char line[120];
    std::snprintf(line, sizeof line, "  %-28s %9.4f  %6.1f%%\n", to_string(TimeCategory(c)), v,
                  m.iteration_time > 0 ? 100 * v / m.iteration_time : 0.0);
    out << line;
  }
  write_stage_table(out, r);
}

}  // namespace trainsim
