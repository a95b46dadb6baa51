// The platform's kernel-time model (sim/analytic/compute_time) against measured GEMM kernels:
// per-row predicted throughput and error, and a fit of the model's GEMM parameters to the rows.
// Pure functions: no simulation, no I/O. A fit minimises the mean squared relative error of the
// kernel times by Nelder-Mead over each parameter's interval, restarted from its best point so the
// simplex does not stall on a flat side of the valley.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sim/config/gemm_measurements.hpp"
#include "sim/config/platform_spec.hpp"

namespace trainsim {

struct GemmRowResult {
  GemmMeasurement measurement;
  double measured_s = 0;        // 2·batch·m·n·k / measured FLOP/s
  double predicted_s = 0;       // kernel_time() of the same GEMM
  double predicted_tflops = 0;  // 2·batch·m·n·k / predicted_s / 1e12
  double error_percent = 0;     // (predicted_s - measured_s) / measured_s × 100: + = model slower
};

// Parameters a GEMM table can pin down: gemm_efficiency, gemm_k_overhead, kernel_overhead, memory_efficiency.
[[nodiscard]] const std::vector<std::string>& gemm_fit_parameters();

// Seconds for one measured GEMM under `acc` (operands and result of `precision`'s element size).
[[nodiscard]] GemmRowResult predict_gemm(const GemmMeasurement& g, const AcceleratorSpec& acc, Precision precision);
[[nodiscard]] std::vector<GemmRowResult> predict_gemms(const GemmMeasurementSet& set, const AcceleratorSpec& acc);
// Mean squared relative error of the predicted kernel times.
[[nodiscard]] double gemm_msre(const std::vector<GemmRowResult>& rows);

struct GemmFit {
  std::vector<std::pair<std::string, double>> values;  // parameter -> fitted value (kernel_overhead in us)
  AcceleratorSpec fitted;                              // `start` with the fitted values set
  std::vector<GemmRowResult> rows;                     // the rows at the fitted values
  int evaluations = 0;                                 // model evaluations of the whole table
};

// UserError for a parameter that is not in gemm_fit_parameters(), one given twice, or none.
// `evaluations` is split over three Nelder-Mead rounds, each restarted at the previous best.
[[nodiscard]] GemmFit fit_gemm_parameters(const GemmMeasurementSet& set, const AcceleratorSpec& start,
                                          const std::vector<std::string>& params, int evaluations);

}  // namespace trainsim
