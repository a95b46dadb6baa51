#include "sim/validate/kernel_fit.hpp"

#include <algorithm>

#include "sim/analytic/compute_time.hpp"
#include "sim/core/error.hpp"
#include "sim/model/kernel_builders.hpp"
#include "sim/validate/accelerator_params.hpp"
#include "sim/validate/error_stats.hpp"
#include "sim/validate/nelder_mead.hpp"

namespace trainsim {
namespace {

constexpr int kRounds = 3;  // Nelder-Mead restarts at the best point so far

AcceleratorSpec with_values(AcceleratorSpec acc, const std::vector<std::string>& params, const std::vector<double>& x) {
  for (size_t i = 0; i < params.size(); ++i) set_parameter(&acc, params[i], x[i]);
  return acc;
}

}  // namespace

const std::vector<std::string>& gemm_fit_parameters() {
  static const std::vector<std::string> names = {"gemm_efficiency", "gemm_k_overhead", "kernel_overhead",
                                                 "memory_efficiency"};
  return names;
}

GemmRowResult predict_gemm(const GemmMeasurement& g, const AcceleratorSpec& acc, Precision precision) {
  const Kernel k = gemm_kernel("gemm", g.shape, bytes_per_element(precision));
  GemmRowResult r;
  r.measurement = g;
  r.measured_s = k.flops / (g.tflops * 1e12);
  r.predicted_s = kernel_time(k, acc, precision);
  r.predicted_tflops = k.flops / r.predicted_s / 1e12;
  r.error_percent = (r.predicted_s - r.measured_s) / r.measured_s * 100;
  return r;
}

std::vector<GemmRowResult> predict_gemms(const GemmMeasurementSet& set, const AcceleratorSpec& acc) {
  std::vector<GemmRowResult> rows;
  rows.reserve(set.rows.size());
  for (const auto& g : set.rows) rows.push_back(predict_gemm(g, acc, set.precision));
  return rows;
}

double gemm_msre(const std::vector<GemmRowResult>& rows) {
  std::vector<std::pair<double, double>> pm;
  for (const auto& r : rows) pm.emplace_back(r.predicted_s, r.measured_s);
  return mean_squared_relative_error(pm);
}

GemmFit fit_gemm_parameters(const GemmMeasurementSet& set, const AcceleratorSpec& start,
                            const std::vector<std::string>& params, int evaluations) {
  require_parameters(params, gemm_fit_parameters(), "--fit");
  std::vector<double> x, lo(params.size()), hi(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    parameter_interval(params[i], &lo[i], &hi[i]);
    x.push_back(get_parameter(start, params[i]));
  }
  GemmFit fit;
  auto objective = [&](const std::vector<double>& p) {
    ++fit.evaluations;
    return gemm_msre(predict_gemms(set, with_values(start, params, p)));
  };
  const int per_round = std::max(static_cast<int>(params.size()) + 1, evaluations / kRounds);
  for (int round = 0; round < kRounds; ++round) {
    for (size_t i = 0; i < x.size(); ++i) x[i] = inside_interval(params[i], x[i]);  // room both ways
    x = nelder_mead_minimize(objective, x, lo, hi, per_round).best_x;
  }
  fit.fitted = with_values(start, params, x);
  fit.rows = predict_gemms(set, fit.fitted);
  for (size_t i = 0; i < params.size(); ++i) fit.values.emplace_back(params[i], x[i]);
  return fit;
}

}  // namespace trainsim
