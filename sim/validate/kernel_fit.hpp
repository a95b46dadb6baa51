// The platform's kernel-time model (sim/analytic/compute_time) against measured kernels: per-row
// predicted time and error, and a fit of the model's parameters to the rows. Each measured row
// becomes the catalogue's own Kernel (gemm_kernel, core_attention_kernel, or a memory-bound
// kernel of the measured bytes), so a table checks exactly what a simulation times.
// Pure functions: no simulation, no I/O. A fit minimises the mean squared relative error of the
// kernel times by Nelder-Mead over each parameter's interval, restarted from its best point so the
// simplex does not stall on a flat side of the valley.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sim/config/kernel_measurements.hpp"
#include "sim/config/platform_spec.hpp"

namespace trainsim {

struct KernelRowResult {
  KernelMeasurement measurement;
  Kernel kernel;             // the catalogue kernel the row was timed as (FLOP, bytes, shape)
  double predicted_s = 0;    // kernel_time() of it, plus kernel_overhead per extra launch
  double error_percent = 0;  // (predicted - measured) / measured seconds × 100: + = model slower
};

// The catalogue kernel a measurement corresponds to, with `precision`'s element size.
[[nodiscard]] Kernel measured_kernel(const KernelMeasurement& m, Precision precision);
// Seconds for one measured kernel under `acc`.
[[nodiscard]] KernelRowResult predict_kernel(const KernelMeasurement& m, const AcceleratorSpec& acc, Precision precision);
[[nodiscard]] std::vector<KernelRowResult> predict_kernels(const KernelMeasurementSet& set, const AcceleratorSpec& acc);
// Mean squared relative error of the predicted kernel times.
[[nodiscard]] double kernel_msre(const std::vector<KernelRowResult>& rows);

struct KernelFit {
  std::vector<std::pair<std::string, double>> values;  // parameter -> fitted value (kernel_overhead in us)
  AcceleratorSpec fitted;                              // `start` with the fitted values set
  std::vector<KernelRowResult> rows;                   // the rows at the fitted values
  int evaluations = 0;                                 // model evaluations of the whole table
};

// UserError for a parameter that is not an accelerator parameter (accelerator_parameter_names),
// one given twice, none, or one that no kernel of `set` depends on (require_fittable, which a
// command may call first, before it prints anything). `evaluations` is split over three
// Nelder-Mead rounds, each restarted at the previous best.
void require_fittable(const KernelMeasurementSet& set, const AcceleratorSpec& start,
                      const std::vector<std::string>& params);
[[nodiscard]] KernelFit fit_kernel_parameters(const KernelMeasurementSet& set, const AcceleratorSpec& start,
                                              const std::vector<std::string>& params, int evaluations);

}  // namespace trainsim
