// Fitting ONE efficiency parameter of a platform's accelerator to that platform's `calibrate`
// rows: minimise the mean squared relative error of predicted vs measured seconds per
// iteration by golden-section search over (lo, hi). Each evaluation simulates every such row
// with `--set platform.accelerator.<param>=x`. The preset is never written: the caller prints
// the value and the rows, and a person pastes it (with the rows as its source).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sim/validate/golden_section.hpp"
#include "sim/validate/nelder_mead.hpp"
#include "sim/validate/validation_run.hpp"

namespace trainsim {

// Accelerator parameters that may be fitted this way: the efficiencies in (0, 1], searched over
// (0.3, 1), and kernel_overhead, searched over (0, 40) microseconds.
[[nodiscard]] const std::vector<std::string>& calibratable_parameters();
// Names, intervals and units of the parameters: sim/validate/accelerator_params.hpp.

struct CalibrationOptions {
  std::string platform;                  // platform preset name (the rows' `hardware`)
  // The rows fitted: the platform's calibrate rows. kCheck only diagnoses (what would the check rows
  // want?); such a value must never go into a preset.
  Split split = Split::kCalibrate;
  std::string param = "gemm_efficiency";
  double lo = 0.3, hi = 1.0;             // search interval (open)
  int evaluations = 12;
  std::vector<std::string> overrides;    // further --set overrides, applied to every run
  int jobs = 1;
  // Called before and after each evaluation (0-based) on the calling thread.
  std::function<void(int evaluation, double value)> on_evaluation_start;
  std::function<void(int evaluation, double value, double msre, const std::vector<RowResult>& rows)>
      on_evaluation_done;
};

struct CalibrationResult {
  std::vector<Measurement> rows;         // the calibrate rows of the platform that were used
  GoldenSectionResult search;            // every (value, mean squared relative error)
  std::vector<RowResult> best_rows;      // the rows' results at search.best_x
};

// The platform's rows of `split` (calibrate unless diagnosing), in file order; UserError (listing
// the platforms that have some) when there are none.
[[nodiscard]] std::vector<Measurement> calibration_rows(const MeasurementSet& set, const std::string& platform,
                                                        Split split = Split::kCalibrate);

// UserError when the parameter is not calibratable or the platform has no calibrate rows.
[[nodiscard]] CalibrationResult calibrate_parameter(const MeasurementSet& set, const CalibrationOptions& options);

// Several parameters at once (e.g. gemm_efficiency and memory_efficiency, which trade against
// each other): Nelder-Mead over their search intervals, starting from the platform preset's
// values. Each evaluation simulates every calibrate row with all the parameters overridden.
struct JointCalibrationResult {
  std::vector<std::pair<std::string, double>> values;  // parameter -> fitted value, in `params` order
  std::vector<Measurement> rows;                       // the calibrate rows that were used
  NelderMeadResult search;                             // every (point, mean squared relative error)
  std::vector<RowResult> best_rows;                    // the rows' results at search.best_x
};
using JointEvaluationCallback =
    std::function<void(int evaluation, const std::vector<double>& x, double msre, const std::vector<RowResult>& rows)>;
[[nodiscard]] JointCalibrationResult calibrate_parameters(const MeasurementSet& set, const CalibrationOptions& base,
                                                          const std::vector<std::string>& params, int evaluations,
                                                          const JointEvaluationCallback& on_evaluation = {});
// The preset's current value of a calibratable parameter (kernel_overhead in microseconds).
[[nodiscard]] double preset_value(const std::string& platform, const std::string& param);

// The override that sets `param` to `value`: "platform.accelerator.gemm_efficiency=0.8125".
[[nodiscard]] std::string parameter_override(const std::string& param, double value);

}  // namespace trainsim
