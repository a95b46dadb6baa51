#include "sim/validate/measured_time.hpp"

#include "sim/model/model_flops.hpp"

namespace trainsim {

Seconds seconds_from_tflops(Flops flops_per_iteration, double tflops_per_device, int devices) {
  return flops_per_iteration / (tflops_per_device * 1e12 * devices);
}

Seconds seconds_from_tokens(double global_batch, double seq_len, double tokens_per_s_per_device, int devices) {
  return global_batch * seq_len / (tokens_per_s_per_device * devices);
}

Flops formula_flops(FlopsFormula formula, const RunSpec& run) {
  switch (formula) {
    case FlopsFormula::kNone: return 0;
    case FlopsFormula::kMegatronFullRecompute: return megatron_flops(run.model, run.global_batch, run.seq_len, true);
    case FlopsFormula::kMegatronNoRecompute: return megatron_flops(run.model, run.global_batch, run.seq_len, false);
    case FlopsFormula::kMegatronLm: return megatron_lm_flops(run.model, run.global_batch, run.seq_len);
  }
  return 0;
}

Seconds measured_iteration_seconds(const Measurement& m, const RunSpec& run) {
  switch (m.metric) {
    case MeasuredMetric::kIterationSeconds: return m.value;
    case MeasuredMetric::kTflopsPerDevice:
      return seconds_from_tflops(formula_flops(m.flops_formula, run), m.value, run.devices);
    case MeasuredMetric::kTokensPerSecondPerDevice:
      return seconds_from_tokens(run.global_batch, run.seq_len, m.value, run.devices);
  }
  return 0;
}

}  // namespace trainsim
