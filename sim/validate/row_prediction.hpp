// What the simulator predicts for one run file: the whole pipeline (load → memory → task
// graphs → SimGrid replay → metrics) in a forked child, because SimGrid allows one simulation
// per process. Data-parallel replicas are folded when dp > 1 and ep == 1 (replicas are
// identical; it keeps the 1000+-device rows fast), and collectives run in bulk mode.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/units.hpp"
#include "sim/replay/timeline.hpp"

namespace trainsim {

struct RowPrediction {
  Seconds iteration_time = 0;       // seconds
  double tflops_per_device = 0;     // Narayanan-counted TFLOP/s per device (RunMetrics)
  double mfu = 0;                   // model FLOPs utilisation, a fraction
  Bytes peak_memory = 0;            // the largest per-device total over pipeline stages, bytes
  Bytes memory_capacity = 0;        // HBM of one accelerator, bytes
  int devices_replayed = 0;
  bool folded = false;              // data-parallel replicas folded
  std::array<Seconds, kTimeCategories> breakdown{};  // where the time went (TimeCategory order), mean over devices
  double wall_seconds = 0;          // how long the child took (not deterministic; not for reports)
};

// Throws UserError (bad run, bad override) or std::runtime_error (the child died).
[[nodiscard]] RowPrediction predict_row(const std::filesystem::path& run_file,
                                        const std::vector<std::string>& overrides);

// The two halves of predict_row, for running many rows through call_in_children: the work a
// child does (returns the prediction as text) and the parsing of that text in the parent.
[[nodiscard]] std::string simulate_row(const std::filesystem::path& run_file, const std::vector<std::string>& overrides);
[[nodiscard]] RowPrediction parse_row_prediction(const std::string& text, const std::filesystem::path& run_file);

}  // namespace trainsim
