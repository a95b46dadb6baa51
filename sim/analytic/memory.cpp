#include "sim/analytic/memory.hpp"

#include <algorithm>
#include <string>

#include "sim/core/error.hpp"

namespace trainsim {
namespace {

ModelStateBytes zero_state(double psi, int n, int stage, const StateBytesPerParam& b, bool offload) {
  if (stage < 0 || stage > 3) {
    throw StrategyError("zero_stage must be 0, 1, 2 or 3 (got " + std::to_string(stage) + ")");
  }
  const double N = std::max(1, n);
  ModelStateBytes s;
  s.weights = b.weights * psi / (stage >= 3 ? N : 1);
  s.gradients = b.gradients * psi / (stage >= 2 ? N : 1);
  const double optimizer = b.optimizer * psi / (stage >= 1 ? N : 1);
  (offload ? s.host_optimizer : s.optimizer) = optimizer;
  return s;
}

}  // namespace

ModelStateBytes model_state_bytes(const ModelStateInput& in) {
  const ModelStateBytes dense = zero_state(in.params, in.dp_group, in.zero_stage, in.per_param, in.offload_optimizer);
  const ModelStateBytes expert =
      zero_state(in.expert_params, in.expert_dp_group, in.zero_stage, in.per_param, in.offload_optimizer);
  ModelStateBytes sum;
  sum.weights = dense.weights + expert.weights;
  sum.gradients = dense.gradients + expert.gradients;
  sum.optimizer = dense.optimizer + expert.optimizer;
  sum.host_optimizer = dense.host_optimizer + expert.host_optimizer;
  return sum;
}

MemoryBreakdown memory_breakdown(const ModelStateInput& state, Bytes activations, Bytes comm_buffers,
                                 Bytes framework) {
  const ModelStateBytes s = model_state_bytes(state);
  MemoryBreakdown m;
  m.weights = s.weights;
  m.gradients = s.gradients;
  m.optimizer = s.optimizer;
  m.host_optimizer = s.host_optimizer;
  m.activations = activations;
  m.comm_buffers = comm_buffers;
  m.framework = framework;
  m.total = m.weights + m.gradients + m.optimizer + m.activations + m.comm_buffers + m.framework;
  return m;
}

Bytes activations_in_flight(int64_t peak_in_flight_units, int layers_per_chunk, Bytes per_layer_bytes,
                            Bytes stage_extra_bytes, int64_t extra_chunk_units) {
  return static_cast<double>(peak_in_flight_units) * layers_per_chunk * per_layer_bytes +
         static_cast<double>(extra_chunk_units) * stage_extra_bytes;
}

int64_t in_flight_1f1b(int stages, int stage, int64_t microbatches) {
  return std::min<int64_t>(stages - stage, microbatches);
}

double interleaved_memory_factor(int stages, int virtual_stages) {
  return 1.0 + static_cast<double>(stages - 1) / (static_cast<double>(stages) * virtual_stages);
}

Bytes comm_buffer_bytes(int data_parallel, Bytes grad_bucket_bytes, int zero_stage, double largest_layer_params,
                        double weight_bytes) {
  Bytes bytes = data_parallel > 1 ? 2 * grad_bucket_bytes : 0;
  if (zero_stage >= 3 && data_parallel > 1) bytes += 2 * largest_layer_params * weight_bytes;
  return bytes;
}

}  // namespace trainsim
