#include "sim/validate/calibrate.hpp"

#include <algorithm>
#include <set>

#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/validate/accelerator_params.hpp"
#include "sim/validate/error_stats.hpp"
#include "sim/validate/text_format.hpp"

namespace trainsim {
namespace {

// Every evaluation of a search: the rows' results, and which evaluation scored lowest (the first
// such, as both searches report their best point).
struct EvaluationHistory {
  std::vector<std::vector<RowResult>> rows;
  size_t best = 0;
  double best_msre = 0;
};

// Simulates `rows` with the options' overrides plus `params[i] = x[i]`; records the results in
// `history` and returns their mean squared relative error.
double evaluate_rows(const std::vector<Measurement>& rows, const CalibrationOptions& o,
                     const std::vector<std::string>& params, const std::vector<double>& x, EvaluationHistory* history) {
  ValidationOptions v;
  v.overrides = o.overrides;
  for (size_t i = 0; i < params.size(); ++i) v.overrides.push_back(parameter_override(params[i], x[i]));
  v.jobs = o.jobs;
  history->rows.push_back(validate_measurements(rows, v));
  std::vector<std::pair<double, double>> pm;
  for (const auto& r : history->rows.back()) pm.emplace_back(r.prediction.iteration_time, r.measured_time);
  const double msre = mean_squared_relative_error(pm);
  if (history->rows.size() == 1 || msre < history->best_msre) {
    history->best = history->rows.size() - 1;
    history->best_msre = msre;
  }
  return msre;
}

}  // namespace

std::vector<Measurement> calibration_rows(const MeasurementSet& set, const std::string& platform, Split split) {
  std::vector<Measurement> rows = select_measurements(set, {}, split, platform);
  if (rows.empty()) {
    std::set<std::string> with_rows;
    for (const auto& m : set.rows)
      if (m.split == split) with_rows.insert(m.hardware);
    const std::string valid = with_rows.empty()
                                  ? std::string("none: the file has no ") + split_name(split) + " rows at all"
                                  : joined_names({with_rows.begin(), with_rows.end()});
    throw UserError("--platform: no " + std::string(split_name(split)) + " rows for '" + platform + "' in " + set.file +
                    "; valid: " + valid);
  }
  return rows;
}

const std::vector<std::string>& calibratable_parameters() {
  static const std::vector<std::string> names = {"gemm_efficiency", "fp8_gemm_efficiency", "attention_efficiency",
                                                 "memory_efficiency", "kernel_overhead"};
  return names;
}

std::string parameter_override(const std::string& param, double value) {
  return "platform.accelerator." + param + "=" + parameter_text(param, value, 6);
}

CalibrationResult calibrate_parameter(const MeasurementSet& set, const CalibrationOptions& options) {
  require_parameter(options.param, calibratable_parameters(), "--param");
  CalibrationResult result;
  result.rows = calibration_rows(set, options.platform, options.split);
  EvaluationHistory history;
  auto objective = [&](double x) {
    const int index = static_cast<int>(history.rows.size());
    if (options.on_evaluation_start) options.on_evaluation_start(index, x);
    const double msre = evaluate_rows(result.rows, options, {options.param}, {x}, &history);
    if (options.on_evaluation_done) options.on_evaluation_done(index, x, msre, history.rows.back());
    return msre;
  };
  result.search = golden_section_minimize(objective, options.lo, options.hi, options.evaluations);
  result.best_rows = history.rows[history.best];
  return result;
}

double preset_value(const std::string& platform, const std::string& param) {
  require_parameter(param, calibratable_parameters(), "--param");
  return get_parameter(load_platform(platform).accelerator, param);
}

JointCalibrationResult calibrate_parameters(const MeasurementSet& set, const CalibrationOptions& base,
                                            const std::vector<std::string>& params, int evaluations,
                                            const JointEvaluationCallback& on_evaluation) {
  require_parameters(params, calibratable_parameters(), "--param");
  JointCalibrationResult result;
  std::vector<double> start, lo, hi;
  for (const auto& p : params) {
    double l = 0, h = 0;
    parameter_interval(p, &l, &h);
    lo.push_back(l);
    hi.push_back(h);
    start.push_back(inside_interval(p, preset_value(base.platform, p)));
  }
  result.rows = calibration_rows(set, base.platform, base.split);
  EvaluationHistory history;
  auto objective = [&](const std::vector<double>& x) {
    const double msre = evaluate_rows(result.rows, base, params, x, &history);
    if (on_evaluation) on_evaluation(static_cast<int>(history.rows.size()) - 1, x, msre, history.rows.back());
    return msre;
  };
  result.search = nelder_mead_minimize(objective, start, lo, hi, evaluations);
  result.best_rows = history.rows[history.best];
  for (size_t i = 0; i < params.size(); ++i) result.values.emplace_back(params[i], result.search.best_x[i]);
  return result;
}

}  // namespace trainsim
