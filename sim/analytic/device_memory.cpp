#include "sim/analytic/device_memory.hpp"

#include <algorithm>
#include <vector>

#include "sim/analytic/activation_memory.hpp"
#include "sim/analytic/memory.hpp"
#include "sim/model/fp8_quantize.hpp"
#include "sim/model/layer_ops.hpp"
#include "sim/model/params.hpp"
#include "sim/model/shard.hpp"
#include "sim/strategy/mesh.hpp"
#include "sim/strategy/schedule_shape.hpp"
#include "sim/strategy/stage_layout.hpp"

namespace trainsim {
namespace {

// What the run keeps for the backward: its recompute setting, attention kind and dropout masks.
ActivationOptions activation_options(const RunSpec& run) {
  ActivationOptions o;
  o.recompute = run.strategy.recompute;
  o.modules = run.strategy.recompute_modules;
  o.flash_attention = run.flash_attention;
  o.dropout = run.dropout.any();
  return o;
}

// Mean activation bytes of one layer of this stage: layers past recompute_layers keep everything.
Bytes per_layer_activations(const RunSpec& run, const Shard& sh, const std::vector<int>& layers) {
  const ActivationOptions recomputed = activation_options(run);
  ActivationOptions kept = recomputed;
  kept.recompute = run.strategy.recompute == Recompute::kFull ? Recompute::kNone : run.strategy.recompute;
  const int limit = run.strategy.recompute_layers;
  // A layer's bytes depend on its index only through its kind (and whether it is recomputed).
  Bytes total = 0, kind[kLayerKinds][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
  for (size_t i = 0; i < layers.size(); ++i) {
    const bool recompute = limit <= 0 || static_cast<int>(i) < limit;
    Bytes& b = kind[layer_kind(run.model, layers[i])][recompute ? 1 : 0];
    if (b < 0) b = layer_activation_bytes(run.model, sh, layers[i], recompute ? recomputed : kept);
    total += b;
  }
  return layers.empty() ? 0 : total / static_cast<double>(layers.size());
}

// The first layer of each kind (layer_kind) among the first `count` of `layers` (all of them when
// count <= 0): a layer's parameters and activations depend on its index only through its kind.
std::vector<int> layer_kinds(const ModelSpec& m, const std::vector<int>& layers, int count = 0) {
  std::vector<int> out;
  bool seen[kLayerKinds] = {false, false, false};
  const size_t end = count > 0 ? std::min(layers.size(), static_cast<size_t>(count)) : layers.size();
  for (size_t i = 0; i < end; ++i) {
    bool& kind = seen[layer_kind(m, layers[i])];
    if (!kind) kind = true, out.push_back(layers[i]);
  }
  return out;
}

// The most one recomputed layer of the stage holds again while its backward runs
// (recompute_transient_bytes), over the layers recompute_layers covers: one micro-batch's, once.
Bytes recompute_transient(const RunSpec& run, const Shard& sh, const std::vector<int>& layers) {
  const ActivationOptions opt = activation_options(run);
  Bytes most = 0;
  for (int l : layer_kinds(run.model, layers, run.strategy.recompute_layers))
    most = std::max(most, recompute_transient_bytes(run.model, sh, l, opt));
  return most;
}

// The FP8 copies of the Linear weights an 8-bit run keeps, beyond their 16-bit parameters, in bytes
// (Transformer Engine caches the FP8 weight and, on Hopper, its transpose between micro-batches:
// 2 B per Linear weight; mxfp8 2·33/32 B). With fp8.param_gather the parameter itself is FP8
// (1 B instead of 2) and only the transpose is added: no net change. Under ZeRO-3 the gathered
// layer's copies are transient (Megatron FSDP drops the transpose cache): the sharded parameter
// shrinks to 1 B with param_gather. On a card whose FP8 GEMMs take any layout (Blackwell) tensor-scaled
// FP8 keeps no transpose (sim/model/fp8_quantize.hpp): one cached copy (1 B), or with param_gather the
// FP8 parameter alone (1 B instead of 2). Sources: TE base.py set_fp8_weights; Megatron --fp8-param-gather.
Bytes fp8_weight_bytes(const RunSpec& run, const Shard& sh, double linear_params, int dp_group) {
  if (!quantizes(sh)) return 0;
  const double q = quantized_layout_bytes(sh), bf16 = bytes_per_element(Precision::kBf16);
  if (run.strategy.zero_stage >= 3) return run.fp8.param_gather ? linear_params * (q - bf16) / dp_group : 0;
  const double copies = fp8_layouts(sh);
  return run.fp8.param_gather ? linear_params * (copies * q - bf16) : linear_params * copies * q;
}

// The layers a stage holds over its chunks, the most in one chunk, and whether it holds the
// embedding / the output layer.
struct StageLayers {
  std::vector<int> layers;
  int per_chunk = 0;
  bool first = false, last = false;
};

StageLayers stage_layers(const RunSpec& run, int stage) {
  StageLayers out;
  for (const auto& c : stage_chunks(pipeline_split(run), stage)) {
    for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l) out.layers.push_back(l);
    out.per_chunk = std::max(out.per_chunk, c.layer_count);
    out.first = out.first || c.has_embedding;
    out.last = out.last || c.has_output;
  }
  return out;
}

// Activations the stage holds at its peak: `peak` in-flight (micro-batch, chunk) units of its layers,
// plus the embedding's output (first stage, local chunk 0) or the logits (last stage, its last local
// chunk; one chunk when a stage holds both: interleaving needs pp >= 2) for the units of that chunk.
Bytes stage_activations(const RunSpec& run, const Shard& sh, const ScheduleClosedForm& schedule, int stage,
                        const StageLayers& st, int peak) {
  const auto& s = run.strategy;
  const PipelineShape shape = pipeline_shape(run);
  Bytes extra = 0;
  if (st.first) extra += first_stage_activation_bytes(run.model, sh, activation_options(run));
  if (st.last) extra += last_stage_activation_bytes(run.model, sh);
  const int extra_units =
      st.first || st.last ? schedule.chunk_peak_in_flight(shape, stage, st.first ? 0 : s.virtual_stages - 1) : 0;
  Bytes activations =
      activations_in_flight(peak, st.per_chunk, per_layer_activations(run, sh, st.layers), extra, extra_units);
  // Deferred output-layer weight gradients keep their inputs until the flush: all of them by then.
  if (st.last) activations += run.deferred_output_wgrads() * deferred_output_wgrad_bytes(run.model, sh);
  // A pipeline engine that keeps each in-flight micro-batch's stage output for its backward
  // (DeepSpeed's pipe_buffers["outputs"]) holds one more hidden-state tensor per unit.
  if (run.framework.memory.keeps_stage_outputs)
    activations += static_cast<double>(peak) * static_cast<double>(sequence_tokens(sh)) * run.model.hidden *
                   activation_element_bytes(run.precision);
  return activations;
}

// What the optimizer's sharding works on: the stage's dense and expert parameters, their groups, the
// bytes per parameter of gradients and optimizer state.
ModelStateInput model_state_of(const RunSpec& run, const ParamCount& held) {
  const auto& s = run.strategy;
  ModelStateInput state;
  state.params = static_cast<double>(held.non_expert());
  state.dp_group = s.dp * s.cp;
  state.expert_params = static_cast<double>(held.expert());
  state.expert_dp_group = expert_grad_degree(s);
  state.zero_stage = s.zero_stage;
  state.offload_optimizer = s.offload == Offload::kOptimizer;
  state.per_param.gradients = gradient_element_bytes(run);  // fp32 main gradients in bf16 runs by default
  state.per_param.optimizer = optimizer_state_bytes(s.optimizer_state, run.fp8.param_gather && is_fp8(run.precision));
  // DeepSpeed ZeRO 1/2 steps on an fp32 copy of its shard's gradients (4 bytes per parameter).
  if (run.framework.memory.fp32_grad_partition) state.per_param.optimizer += 4;
  return state;
}

// Parameters of the largest layer the stage holds on one device.
double largest_layer_params(const RunSpec& run, const std::vector<int>& layers) {
  double largest = 0;
  for (int l : layer_kinds(run.model, layers))
    largest = std::max(largest, static_cast<double>(
                                    layer_params_on_device(run.model, l, run.strategy).total()));
  return largest;
}

DeviceMemory memory_of_stage(const RunSpec& run, const ScheduleClosedForm& schedule, int stage) {
  const auto& s = run.strategy;
  const Shard sh = shard_of(run);
  const StageLayers st = stage_layers(run, stage);
  DeviceMemory out;
  out.stage = stage;
  out.peak_in_flight = schedule.peak_in_flight(pipeline_shape(run), stage);
  out.recompute_transient = recompute_transient(run, sh, st.layers);
  const Bytes activations =
      stage_activations(run, sh, schedule, stage, st, out.peak_in_flight) + out.recompute_transient;
  const ParamCount held = device_params(run.model, st.layers, st.first, st.last, s);
  out.params = static_cast<double>(held.total());
  const Bytes comm = comm_buffer_bytes(s.dp * s.cp, s.grad_bucket_size, s.zero_stage,
                                       largest_layer_params(run, st.layers), activation_element_bytes(run.precision));
  const FrameworkMemory& fm = run.framework.memory;
  const Bytes fixed = run.framework_overhead + fm.context + fm.workspace;
  const MemoryBreakdown b = memory_breakdown(model_state_of(run, held), activations, comm, fixed);
  const Bytes fp8_copies = fp8_weight_bytes(run, sh, static_cast<double>(held.linear()), s.dp * s.cp);
  out.weights = b.weights + fp8_copies;
  out.gradients = b.gradients;
  out.optimizer = b.optimizer;
  out.activations = b.activations;
  out.comm_buffers = b.comm_buffers;
  // The caching allocator holds more than the tensors' peak (fragmentation, cached blocks).
  out.framework = b.framework + fm.allocator_reserve * (b.total + fp8_copies - b.framework);
  return out;
}

}  // namespace

std::vector<DeviceMemory> stage_memory(const RunSpec& run) {
  std::vector<DeviceMemory> out;
  const ScheduleClosedForm& schedule = find_schedule_closed_form(run.strategy.schedule);
  for (int stage = 0; stage < run.strategy.pp; ++stage) out.push_back(memory_of_stage(run, schedule, stage));
  return out;
}

const DeviceMemory& peak_memory(const std::vector<DeviceMemory>& stages) {
  return *std::max_element(stages.begin(), stages.end(),
                           [](const DeviceMemory& a, const DeviceMemory& b) { return a.total() < b.total(); });
}

}  // namespace trainsim
