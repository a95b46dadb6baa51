// Per-device memory: model states under the ZeRO stages, activations in flight, buffers.
#pragma once
#include <cstdint>

#include "sim/core/units.hpp"

namespace trainsim {

// Bytes of model state per parameter, mixed-precision Adam (Rajbhandari et al. 2020, "ZeRO",
// Sec. 3.1): 16-bit weights (2), 16-bit gradients (2), optimizer K = 12 (fp32 master weights,
// momentum, variance). Megatron keeps fp32 main gradients: gradients = 4 (18 B/param).
struct StateBytesPerParam {
  double weights = 2;
  double gradients = 2;
  double optimizer = 12;
};

// The parameters one device holds (after TP/PP/EP splitting) and the groups their state is
// sharded over. Dense (non-expert) parameters are data-parallel over dp·cp ranks (Megatron's
// gradient and distributed-optimizer group includes CP); routed-expert parameters over the
// expert-data-parallel group of dp·cp/ep ranks (tp·dp·cp/ep with folded experts; ep ranks hold different
// experts).
struct ModelStateInput {
  double params = 0;           // Ψ: non-expert parameters on this device (count)
  int dp_group = 1;            // N for Ψ: dp·cp
  double expert_params = 0;    // Ψ_e: routed-expert parameters on this device (count)
  int expert_dp_group = 1;     // N for Ψ_e: dp·cp/ep (expert_grad_degree)
  int zero_stage = 0;          // 0..3
  bool offload_optimizer = false;  // optimizer states (the K·Ψ term) live in host memory
  StateBytesPerParam per_param;
};

struct ModelStateBytes {
  Bytes weights = 0, gradients = 0, optimizer = 0;  // on the device
  Bytes host_optimizer = 0;                          // on the host when offloaded
};

// ZeRO stage s, Ψ params, N ranks (Rajbhandari et al. 2020, Fig. 1 / Sec. 5):
//   0: 2Ψ + 2Ψ + 12Ψ = 16Ψ;  1: 2Ψ + 2Ψ + 12Ψ/N;  2: 2Ψ + (2Ψ + 12Ψ)/N;  3: 16Ψ/N.
// Applied to Ψ over dp_group and Ψ_e over expert_dp_group and summed. Offload moves the
// optimizer term (12Ψ or 12Ψ/N) to host_optimizer. Throws StrategyError for a stage outside 0..3.
[[nodiscard]] ModelStateBytes model_state_bytes(const ModelStateInput& in);

struct MemoryBreakdown {
  Bytes weights = 0;       // model weights on the device
  Bytes gradients = 0;     // gradient buffers
  Bytes optimizer = 0;     // optimizer states on the device (0 when offloaded)
  Bytes activations = 0;   // activations in flight at the peak
  Bytes comm_buffers = 0;  // gradient buckets, ZeRO-3 gathered parameters, a2a buffers
  Bytes framework = 0;     // CUDA context, allocator fragmentation, workspace (run's framework_overhead)
  Bytes total = 0;         // sum of the above (device memory)
  Bytes host_optimizer = 0;  // optimizer states in host memory (not in total)
};
[[nodiscard]] MemoryBreakdown memory_breakdown(const ModelStateInput& state, Bytes activations,
                                               Bytes comm_buffers, Bytes framework);

// Activations at the peak: in-flight (micro-batch, chunk) units × layers per chunk × per-layer
// bytes, plus the stage extras (embedding output, logits) × the units of the chunk that holds them.
// Both counts come from the schedule (sim/strategy/schedule_shape: 1F1B stage i holds min(p − i, m)
// units, all of its one chunk; interleaving holds far fewer units of the output's chunk than of the
// stage). Adding the two peaks bounds the peak of the sum.
[[nodiscard]] Bytes activations_in_flight(int64_t peak_in_flight_units, int layers_per_chunk, Bytes per_layer_bytes,
                                          Bytes stage_extra_bytes, int64_t extra_chunk_units);

// Closed forms of the in-flight counts for the analytic model (Narayanan et al. SC'21 Sec. 2.2;
// Korthikanti 2022 Sec. 4.2.3): 1F1B stage i of p holds min(p − i, m) micro-batches; GPipe holds
// m; interleaving multiplies the first stage's p by (1 + (p − 1)/(p·v)).
[[nodiscard]] int64_t in_flight_1f1b(int stages, int stage, int64_t microbatches);
[[nodiscard]] double interleaved_memory_factor(int stages, int virtual_stages);

// Communication buffers (an estimate): the DP gradient bucket being reduced while the next one
// fills (2 × bucket bytes when dp > 1), and under ZeRO-3 the gathered parameters of the current
// and the prefetched layer (2 × largest layer's params × weight bytes).
[[nodiscard]] Bytes comm_buffer_bytes(int data_parallel, Bytes grad_bucket_bytes, int zero_stage,
                                      double largest_layer_params, double weight_bytes);

}  // namespace trainsim
