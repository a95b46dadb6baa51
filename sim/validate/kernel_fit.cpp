#include "sim/validate/kernel_fit.hpp"

#include <algorithm>

#include "sim/analytic/compute_time.hpp"
#include "sim/core/error.hpp"
#include "sim/model/attention_ops.hpp"
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

// A one-layer model and one device's shard whose core attention is the measured one.
Kernel attention_kernel(const AttentionShape& a, Precision precision) {
  ModelSpec m;
  m.heads = static_cast<int>(a.heads);
  m.kv_heads = static_cast<int>(a.kv_heads > 0 ? a.kv_heads : a.heads);
  m.head_dim = static_cast<int>(a.head_dim);
  m.hidden = m.heads * m.head_dim;
  Shard sh;
  sh.micro_batch = a.batch;
  sh.seq = sh.context = a.seq;
  sh.precision = precision;
  sh.attention_dropout = a.dropout;
  sh.window = a.window > 0 ? a.window + 1 : 0;  // W keys back plus the query's own: the model's window
  return core_attention_kernel(m, sh, a.backward);
}

}  // namespace

Kernel measured_kernel(const KernelMeasurement& m, Precision precision) {
  switch (m.kind) {
    case MeasuredKind::kGemm: {
      Kernel k = gemm_kernel("gemm", m.gemm, precision);
      k.launches = m.launches;
      return k;
    }
    case MeasuredKind::kAttention:
      return attention_kernel(m.attention, precision);
    case MeasuredKind::kStream:
      break;
  }
  Kernel k;
  k.name = m.op;
  k.cls = KernelClass::kElementwise;
  k.bytes = m.bytes;
  k.launches = m.launches;
  return k;
}

KernelRowResult predict_kernel(const KernelMeasurement& m, const AcceleratorSpec& acc, Precision precision) {
  KernelRowResult r;
  r.measurement = m;
  r.kernel = measured_kernel(m, precision);
  r.predicted_s = kernel_time(r.kernel, acc);  // one kernel_overhead per launch
  r.error_percent = (r.predicted_s - m.measured_s) / m.measured_s * 100;
  return r;
}

std::vector<KernelRowResult> predict_kernels(const KernelMeasurementSet& set, const AcceleratorSpec& acc) {
  std::vector<KernelRowResult> rows;
  rows.reserve(set.rows.size());
  for (const auto& m : set.rows) rows.push_back(predict_kernel(m, acc, set.precision));
  return rows;
}

double kernel_msre(const std::vector<KernelRowResult>& rows) {
  std::vector<std::pair<double, double>> pm;
  for (const auto& r : rows) pm.emplace_back(r.predicted_s, r.measurement.measured_s);
  return mean_squared_relative_error(pm);
}

namespace {

// Whether any kernel's predicted time moves when params[k] goes from one end of its interval to
// the other, with the other fitted parameters at their start, at their lower or at their upper
// ends (one may matter only once another has moved: memory_efficiency on GEMMs that turn
// memory-bound at a high gemm_efficiency). A parameter no kernel uses cannot be fitted.
bool tables_depend_on(const KernelMeasurementSet& set, const AcceleratorSpec& start,
                      const std::vector<std::string>& params, size_t k) {
  std::vector<double> lo(params.size()), hi(params.size()), at(params.size());
  for (size_t i = 0; i < params.size(); ++i) parameter_interval(params[i], &lo[i], &hi[i]);
  for (const int others : {0, 1, 2}) {  // the others at start, at lo, at hi
    for (size_t i = 0; i < params.size(); ++i) at[i] = others == 0 ? get_parameter(start, params[i]) : others == 1 ? lo[i] : hi[i];
    at[k] = lo[k];
    const std::vector<KernelRowResult> low = predict_kernels(set, with_values(start, params, at));
    at[k] = hi[k];
    const std::vector<KernelRowResult> high = predict_kernels(set, with_values(start, params, at));
    for (size_t i = 0; i < low.size(); ++i)
      if (low[i].predicted_s != high[i].predicted_s) return true;
  }
  return false;
}

}  // namespace

void require_fittable(const KernelMeasurementSet& set, const AcceleratorSpec& start,
                      const std::vector<std::string>& params) {
  require_parameters(params, accelerator_parameter_names(), "--fit");
  for (size_t k = 0; k < params.size(); ++k)
    if (!tables_depend_on(set, start, params, k))
      throw UserError("--fit " + params[k] + ": no kernel of the tables depends on it (its time is the same at either end "
                      "of the parameter's range), so nothing can fit it; fit it to a table of kernels that use it");
}

KernelFit fit_kernel_parameters(const KernelMeasurementSet& set, const AcceleratorSpec& start,
                                const std::vector<std::string>& params, int evaluations) {
  require_fittable(set, start, params);
  std::vector<double> x, lo(params.size()), hi(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    parameter_interval(params[i], &lo[i], &hi[i]);
    x.push_back(get_parameter(start, params[i]));
  }
  KernelFit fit;
  auto objective = [&](const std::vector<double>& p) {
    ++fit.evaluations;
    return kernel_msre(predict_kernels(set, with_values(start, params, p)));
  };
  const int per_round = std::max(static_cast<int>(params.size()) + 1, evaluations / kRounds);
  for (int round = 0; round < kRounds; ++round) {
    for (size_t i = 0; i < x.size(); ++i) x[i] = inside_interval(params[i], x[i]);  // room both ways
    x = nelder_mead_minimize(objective, x, lo, hi, per_round).best_x;
  }
  fit.fitted = with_values(start, params, x);
  fit.rows = predict_kernels(set, fit.fitted);
  for (size_t i = 0; i < params.size(); ++i) fit.values.emplace_back(params[i], x[i]);
  return fit;
}

}  // namespace trainsim
