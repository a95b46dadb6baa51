#include "sim/validate/calibrate.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "sim/core/error.hpp"
#include "sim/validate/error_stats.hpp"
#include "sim/validate/text_format.hpp"

namespace trainsim {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::vector<Measurement> calibration_rows(const MeasurementSet& set, const std::string& platform) {
  std::vector<Measurement> rows = select_measurements(set, {}, Split::kCalibrate, platform);
  if (rows.empty()) {
    std::set<std::string> with_rows;
    for (const auto& m : set.rows)
      if (m.split == Split::kCalibrate) with_rows.insert(m.hardware);
    throw UserError("--platform: no calibrate rows for '" + platform + "' in " + set.file +
                    "; valid: " + joined({with_rows.begin(), with_rows.end()}));
  }
  return rows;
}

void require_calibratable(const std::string& param) {
  const auto& valid = calibratable_parameters();
  if (std::find(valid.begin(), valid.end(), param) == valid.end())
    throw UserError("--param: '" + param + "' cannot be calibrated; valid: " + joined(valid));
}

const std::vector<std::string>& calibratable_parameters() {
  static const std::vector<std::string> names = {"gemm_efficiency", "attention_efficiency", "memory_efficiency",
                                                 "kernel_overhead"};
  return names;
}

std::string parameter_override(const std::string& param, double value) {
  // kernel_overhead is a time: searched in microseconds.
  const char* unit = param == "kernel_overhead" ? "us" : "";
  return "platform.accelerator." + param + "=" + format_text("%.6g", value) + unit;
}

void search_interval(const std::string& param, double* lo, double* hi) {
  if (param == "kernel_overhead") {
    *lo = 0;
    *hi = 40;  // microseconds per kernel
  } else {
    *lo = 0.3;
    *hi = 1.0;
  }
}

CalibrationResult calibrate_parameter(const MeasurementSet& set, const CalibrationOptions& options) {
  require_calibratable(options.param);
  CalibrationResult result;
  result.rows = calibration_rows(set, options.platform);
  std::vector<std::vector<RowResult>> per_evaluation;
  auto objective = [&](double x) {
    const int index = static_cast<int>(per_evaluation.size());
    if (options.on_evaluation_start) options.on_evaluation_start(index, x);
    ValidationOptions v;
    v.overrides = options.overrides;
    v.overrides.push_back(parameter_override(options.param, x));
    v.jobs = options.jobs;
    per_evaluation.push_back(validate_measurements(result.rows, v));
    std::vector<std::pair<double, double>> pm;
    for (const auto& r : per_evaluation.back()) pm.emplace_back(r.prediction.iteration_time, r.measured_time);
    const double msre = mean_squared_relative_error(pm);
    if (options.on_evaluation_done) options.on_evaluation_done(index, x, msre, per_evaluation.back());
    return msre;
  };
  result.search = golden_section_minimize(objective, options.lo, options.hi, options.evaluations);
  for (size_t i = 0; i < result.search.evaluations.size(); ++i)
    if (result.search.evaluations[i].first == result.search.best_x) result.best_rows = per_evaluation[i];
  return result;
}

JointCalibrationResult calibrate_parameters(const MeasurementSet& set, const CalibrationOptions& base,
                                            const std::vector<std::string>& params, int rounds,
                                            const std::function<void(int, const std::string&)>& on_search_start) {
  if (params.empty()) throw UserError("--param: no parameter given; valid: " + joined(calibratable_parameters()));
  for (const auto& p : params) require_calibratable(p);
  JointCalibrationResult out;
  std::map<std::string, double> fitted;
  for (int round = 0; round < std::max(1, rounds); ++round) {
    for (const auto& param : params) {
      if (on_search_start) on_search_start(round, param);
      CalibrationOptions o = base;
      o.param = param;
      search_interval(param, &o.lo, &o.hi);
      for (const auto& [other, value] : fitted)
        if (other != param) o.overrides.push_back(parameter_override(other, value));
      out.last = calibrate_parameter(set, o);
      fitted[param] = out.last.search.best_x;
    }
  }
  for (const auto& p : params) out.values.emplace_back(p, fitted[p]);
  return out;
}

}  // namespace trainsim
