// A validation: the selected measurements, each compared with the simulator's prediction of
// its run, on seconds per iteration.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/measurements.hpp"
#include "sim/validate/row_prediction.hpp"

namespace trainsim {

struct RowResult {
  Measurement measurement;
  std::string kind;            // row_kind of its run: what the report groups errors by besides hardware
  int devices = 0;
  Seconds measured_time = 0;   // the measurement as seconds per iteration (measured_time.hpp)
  RowPrediction prediction;
  double error_percent = 0;    // (predicted − measured) / measured · 100
  // The run as trainsim reads it, name and description left out (run and model YAML as the writers
  // spell them): equal for two rows that measured the same run (repeat_runs.hpp); "" when unknown.
  std::string run_key;
};

// The kind of training a run is, for grouping errors: "MoE" for a mixture-of-experts model, else
// "FP8 dense" for an fp8 run, else "16-bit dense" (bf16, fp16) or "32-bit dense" (fp32, tf32).
[[nodiscard]] std::string row_kind(const RunSpec& run);

// The rows to run, in file order: those named in `only` (all when empty; an unknown id is a
// UserError listing the valid ones), then of `split` and of `hardware` when given.
[[nodiscard]] std::vector<Measurement> select_measurements(const MeasurementSet& set,
                                                           const std::vector<std::string>& only,
                                                           std::optional<Split> split,
                                                           const std::string& hardware = "");

struct ValidationOptions {
  std::vector<std::string> overrides;  // --set KEY=VALUE, applied to every run
  int jobs = 1;                        // rows simulated at once (each in its own child process)
  // Called on the calling thread before a row starts and after it finished (index into rows).
  std::function<void(int index, int total, const Measurement&)> on_start;
  std::function<void(int index, int total, const RowResult&)> on_done;
};

// Loads every run (a run whose platform is not the row's `hardware` is a UserError), converts
// each measurement to seconds, simulates each run, and returns one result per row, in order.
[[nodiscard]] std::vector<RowResult> validate_measurements(const std::vector<Measurement>& rows,
                                                           const ValidationOptions& options);

}  // namespace trainsim
