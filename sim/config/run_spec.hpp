// One training run: model + platform + strategy + batch, parsed from workloads/*.yaml.
//
//   name: llama3-8b-h100
//   model: llama3-8b            # preset name or path to a model YAML
//   platform: dgx-h100-superpod # preset name or path to a platform YAML
//   devices: 64
//   precision: bf16             # fp8 / mxfp8: weight GEMMs in 8 bits, the rest in bf16
//   fp8: {recipe: delayed, param_gather: false}   # fp8 and mxfp8 runs only (fp8_spec.hpp)
//   seq_len: 8192
//   global_batch: 512           # sequences per iteration
//   micro_batch: 1              # sequences per micro-batch per pipeline
//   strategy: {tp: 8, pp: 2, dp: 4, cp: 1, ep: 1, sequence_parallel: true,
//              schedule: 1f1b, virtual_stages: 1, first_stage_layers: 0, last_stage_layers: 0,
//              stage_layers: [], account_for_embedding: false, account_for_loss: false,
//              zero_stage: 1, recompute: selective, recompute_modules: [core_attn],
//              recompute_layers: 0, offload: none, grad_bucket_size: 40MB, grad_precision: auto,
//              grad_accumulation_fusion: true, mesh_order: tp-cp-ep-dp-pp, keep_in_domain: [tp, ep],
//              overlap: {dp_grad_reduce: true, zero_param_gather: true, tp_comm: false, pp_comm: true,
//                        ep_comm: false}}
//   collectives: {dp: ring, tp: ring}   # optional per-dimension algorithm override
//   framework: megatron-lm      # preset name or path (workloads/frameworks/), or a map with base: + keys
//   framework_overhead: 2GiB    # per-device memory held besides what `framework` models
//   flash_attention: true       # false: unfused attention (s x s scores in HBM)
//   dropout: {attention: 0.1, hidden: 0.1}   # probabilities; default 0 (no dropout)
//   moe: {imbalance: 1.0, capacity_factor: 0, pad_to_capacity: false, dispatcher: alltoall}   # MoE routing (MoeRouting)
#pragma once
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/fp8_spec.hpp"
#include "sim/config/framework_spec.hpp"
#include "sim/config/model_spec.hpp"
#include "sim/config/platform_spec.hpp"
#include "sim/config/precision.hpp"
#include "sim/core/units.hpp"

namespace trainsim {

enum class Recompute { kNone, kSelective, kFull };
enum class Offload { kNone, kOptimizer };  // optimizer state (and its step) on host memory

// How the loss's cross entropy runs over the logits:
//   kUnfused  Megatron-LM's vocab-parallel chain of PyTorch ops (.float(), max, subtract, exp, sum,
//             divide; megatron/core/tensor_parallel/cross_entropy.py), the fp32 softmax kept;
//   kTe       Transformer Engine's fused kernels (cross_entropy_fusion_impl "te"): an online-softmax
//             pass reads the 16-bit logits, a second pass reads them again and writes the gradient in
//             their place, kept for the backward, which scales it in place (NVIDIA/TransformerEngine
//             transformer_engine/pytorch/triton/cross_entropy.py, PR #1456 "backward step is a no-op",
//             "storing the gradients in-place of the input tensor").
enum class CrossEntropy { kUnfused, kTe };

// How tokens reach the experts of another expert-parallel rank (Megatron-Core --moe-token-dispatcher-type):
//   kAllToAll  permute locally, all-to-all, then sort the received chunks into expert order (a second
//              pass over the tokens when a rank holds several experts), and the reverse on the way back
//              (MoEAlltoAllTokenDispatcher, sort_chunks_by_idxs);
//   kFlex      DeepEP / HybridEP: the exchange delivers each rank's tokens and one local permutation
//              orders them (MoEFlexTokenDispatcher): no chunk sort.
enum class MoeDispatcher { kAllToAll, kFlex };
// --moe-router-dtype: the router GEMM in the activations' precision, or with fp32 logits.
enum class MoeRouterDtype { kActivation, kFp32 };

// What the optimizer keeps per parameter beside the 16-bit weight (Adam):
//   kFp32           fp32 moments and an fp32 master weight: 12 bytes (Megatron-Core's distributed
//                   optimizer, DeepSpeed ZeRO);
//   kFp32Remainder  fp32 moments; the master weight kept as the 16 low bits the bf16 weight drops
//                   (Apex DistributedFusedAdam store_param_remainders, which NeMo sets for fp32
//                   state and bf16 weights): 4 + 4 + 2 = 10 bytes;
//   kBf16           bf16 moments and no master weight, the bf16 weight being updated in place
//                   (DistributedFusedAdam with dtype bf16; NeMo then sets store_params false): 4 bytes.
// With FP8 model weights (fp8.param_gather) there is no 16-bit weight to update or to complete, so
// the master is whole, in the state's precision (NeMo sets store_params for fp8_params): kFp32Remainder
// keeps 12 bytes, kBf16 6. Sources: NVIDIA/apex apex/contrib/optimizers/distributed_fused_adam.py
// (store_params, store_param_remainders, dtype); NVIDIA/NeMo megatron_base_model.py
// setup_optimization (which of them it sets), mid-2024 versions.
enum class OptimizerState { kFp32, kFp32Remainder, kBf16 };
// Bytes per parameter, as above; `fp8_weights`: the model's weights are FP8.
[[nodiscard]] constexpr double optimizer_state_bytes(OptimizerState s, bool fp8_weights) {
  if (s == OptimizerState::kFp32) return 12;
  if (s == OptimizerState::kFp32Remainder) return fp8_weights ? 12 : 10;
  return fp8_weights ? 6 : 4;
}

// What selective recompute re-runs in the backward (Megatron-Core `--recompute-modules`, used with
// `--recompute-granularity selective`; its default is core_attn alone). Each module drops what it
// recomputes from the activation memory (sim/analytic/activation_memory.hpp) and re-runs its
// kernels before the block's backward (sim/model/recompute_ops.hpp).
struct RecomputeModules {
  bool core_attn = true;   // unfused attention's scores..context (and fused attention's log-sum-exp)
  bool layernorm = false;  // the norm before each MoE block (the other norms are fused into their Linear;
                           // MLA's separate input norm is not re-run by it here: not modelled)
  bool moe_act = false;    // the experts' activation function (and, in 8-bit runs, its quantization)
  bool mlp = false;        // a dense layer's whole MLP block, norm to fc2
  bool mla_up_proj = false;  // MLA's up-projections, their latent norms and the rotary kernels: the query,
                             // key and value they make are freed after core attention
};

struct OverlapSpec {
  bool dp_grad_reduce = true;     // gradient reduction in buckets overlaps backward
  bool zero_param_gather = true;  // ZeRO parameter all-gather prefetched, overlapping compute
  bool tp_comm = false;           // TP collectives overlap GEMMs (comm/GEMM overlap kernels)
  bool pp_comm = true;            // PP sends/receives overlap compute
  // EP all-to-alls of one micro-batch overlap another's compute: Megatron-Core's combined 1F1B
  // (--overlap-moe-expert-parallel-comm): pp 1 with 1f1b, or interleaved with virtual_stages >= 2
  // (sim/graph/merged_passes.hpp).
  bool ep_comm = false;
  // The backward's weight-gradient GEMM of a column-parallel layer runs beside the TP reduction of its
  // input gradient (Megatron-LM's asynchronous TP all-reduce, `async_tensor_model_parallel_allreduce`,
  // and Megatron-Core's SP reduce-scatter); false: it waits for the reduction, which is then exposed
  // whole (Megatron-LM of 2021, whose autograd all-reduced the input gradient after the layer's whole
  // backward; the bigscience Megatron-DeepSpeed fork). sim/graph/build_context.hpp.
  bool tp_grad_reduce = true;
  // Every switch off: no stream overlaps another (blocking launches, sim/config/run_loader.cpp).
  static OverlapSpec serial() { return OverlapSpec{false, false, false, false, false, false}; }
};

struct StrategySpec {
  int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1;   // degrees; tp*pp*dp*cp = devices; ep divides expert_span()
  // Megatron-Core --expert-tensor-parallel-size: 0 = tp (its default: each expert split as the dense
  // layers, EP groups carved out of dp*cp); 1 = experts whole, EP groups carved out of tp*cp*dp (MoE
  // parallel folding), the MoE block's tokens staying sequence-parallel shards (no TP collectives).
  int expert_tp = 0;
  [[nodiscard]] int expert_tp_degree() const { return expert_tp == 0 ? tp : expert_tp; }
  // Whether the experts' parallel groups are folded over the tensor-parallel ranks (expert_tp 1, tp > 1).
  [[nodiscard]] bool folds_experts() const { return expert_tp_degree() == 1 && tp > 1; }
  // The ranks of one pipeline stage that EP x expert-DP partition: dp*cp, or tp*cp*dp when folded.
  [[nodiscard]] int expert_span() const { return (folds_experts() ? tp : 1) * cp * dp; }
  // The expert data-parallel degree: ranks of the span holding the same experts (expert_span / ep).
  [[nodiscard]] int expert_dp() const { return expert_span() / ep; }
  bool sequence_parallel = false;                // Megatron SP: RS + AG instead of all-reduce
  std::string schedule = "1f1b";                 // registered pipeline schedule (trainsim list schedules)
  int virtual_stages = 1;                        // model chunks per pipeline rank (interleaved)
  // Uneven pipeline split (Megatron-Core --decoder-first-pipeline-num-layers and
  // --decoder-last-pipeline-num-layers): layers of the first / last stage, the other stages sharing
  // the rest equally (sim/strategy/stage_layout.hpp); 0 = the even split.
  int first_stage_layers = 0;
  int last_stage_layers = 0;
  // Explicit layers of every stage, in order (DeepSpeed partition_method "uniform" lists,
  // MindSpeed --num-layer-list); empty = derived (first/last, the framework's method, even).
  std::vector<int> stage_layers;
  // Megatron-Core --account-for-embedding-in-pipeline-split / --account-for-loss-in-pipeline-split:
  // the embedding (loss) counts as one layer when the even split is cut, so the first (last) model
  // chunk holds one transformer layer fewer (sim/strategy/stage_layout.hpp).
  bool account_for_embedding = false;
  bool account_for_loss = false;
  // Megatron-Core --pipeline-model-parallel-layout: the layers of every model chunk as its layout text
  // (sim/strategy/pipeline_layout.hpp); empty = none (the split above).
  std::string pipeline_layout;
  int zero_stage = 0;                            // 0-3 (3 = FSDP)
  Recompute recompute = Recompute::kNone;
  RecomputeModules recompute_modules;            // what selective recompute re-runs
  int recompute_layers = 0;                      // 0 = every layer; else only this many layers per stage
  Offload offload = Offload::kNone;
  OptimizerState optimizer_state = OptimizerState::kFp32;
  Bytes grad_bucket_size = 40e6;                 // DP gradient bucket, bytes (Megatron default 40M elements*?)
  // Precision of the main gradients (their buffer and their data-parallel reduction); nullopt
  // ("auto") follows Megatron-LM: fp32 for bf16 runs (arguments.py forces
  // accumulate_allreduce_grads_in_fp32), the run's own precision otherwise. bf16 is Megatron's later
  // --grad-reduce-in-bf16.
  std::optional<Precision> grad_precision;
  // Weight-gradient GEMMs add into the main-gradient buffer themselves (Megatron's gradient
  // accumulation fusion, its default on CUDA). false = --no-gradient-accumulation-fusion: each
  // micro-batch's weight gradient is written, then added to the buffer by a separate kernel.
  bool grad_accumulation_fusion = true;
  // Megatron-Core's DDP at each gradient bucket of the last micro-batch, on the compute stream before
  // the bucket's reduction (param_and_grad_buffer.py, start_grad_sync; sim/graph/grad_checks.hpp):
  // grad_nan_check computes the bucket's norm and tests it on the host (--check-for-nan-in-loss-and-grad,
  // on by default in Megatron-LM's arguments: a host synchronisation per bucket); grad_scale_kernel
  // multiplies the bucket by 1/dp (Megatron-LM without --ddp-average-in-collective; with it the
  // reduction averages and no kernel runs).
  bool grad_nan_check = false;
  bool grad_scale_kernel = false;
  [[nodiscard]] bool grad_bucket_kernels() const { return grad_nan_check || grad_scale_kernel; }
  // Megatron-Core's defer_embedding_wgrad_compute with wgrad_deferral_limit N: the output layer's
  // weight-gradient GEMMs of the first N micro-batches wait, their inputs buffered, until the stage has
  // run its last backward, inside the pipeline flush (sim/graph/chunk_tasks.hpp). 0: off; N above the
  // micro-batch count defers them all. Needs pp > 1 and a schedule that keeps weight gradients in
  // the backward (not zb-h1).
  int defer_output_wgrad = 0;
  std::string mesh_order = "tp-cp-ep-dp-pp";     // fastest-varying dimension first (Megatron order)
  // Dimensions ("tp", "ep", ...) whose every group must sit inside one domain of the platform's
  // innermost tier (a node's NVLink island); a strategy that puts one across domains is refused.
  // Empty: allowed (`check` warns when a TP or EP group straddles).
  std::vector<std::string> keep_in_domain;
  OverlapSpec overlap;
};

// Dropout of a training run (Megatron-LM --attention-dropout / --hidden-dropout): probabilities
// in [0, 1); 0 turns it off. Attention dropout drops attention probabilities (inside the fused
// kernel, or as a kernel over the scores when unfused); hidden dropout drops the output of the
// attention and MLP blocks before their residual add.
struct DropoutSpec {
  double attention = 0;
  double hidden = 0;
  [[nodiscard]] bool any() const { return attention > 0 || hidden > 0; }
};

// How a run routes tokens to experts (MoE models; Megatron-Core's router options). The replay
// gives every expert-parallel rank the busiest rank's load: the all-to-alls make the whole group
// wait for it.
struct MoeRouting {
  // Routed rows the busiest expert-parallel rank receives, relative to an even share (>= 1);
  // 1 = balanced, as benchmarks that force-balance tokens (--moe-router-force-load-balancing).
  double imbalance = 1;
  // --moe-expert-capacity-factor: an expert accepts at most this many times its even share and
  // drops the rest; 0 = dropless (the model's capacity_factor, a padding factor, then applies).
  double capacity_factor = 0;
  // --moe-pad-expert-input-to-capacity: every expert runs exactly capacity_factor times its even
  // share (static shapes: the dispatcher needs no host synchronisation).
  bool pad_to_capacity = false;
  // --moe-token-dispatcher-type: alltoall (the default here) or flex (DeepEP / HybridEP backends).
  MoeDispatcher dispatcher = MoeDispatcher::kAllToAll;
  // --moe-router-dtype fp32: fp32 router logits. Megatron-Core's RouterGatingLinearFunction (with
  // Transformer Engine) runs the forward GEMM on 16-bit operands into fp32, and the backward's two
  // GEMMs on fp32 operands, which TE's cuBLASLt GEMM computes as TF32, with casts of the router
  // input to fp32 and of its gradient back (sim/model/router_ops.cpp).
  MoeRouterDtype router_dtype = MoeRouterDtype::kActivation;
  // --moe-router-force-load-balancing: random logits (benchmarks that force-balance the routing);
  // --moe-router-load-balancing-type aux_loss: the auxiliary loss's router kernels (sim/model/router_ops.hpp).
  bool force_balance = false;
  bool aux_loss = false;
};

struct RunSpec {
  std::string name;
  std::string description;
  std::string source_file;
  ModelSpec model;
  PlatformSpec platform;
  int devices = 0;
  Precision precision = Precision::kBf16;
  Fp8Spec fp8;                                   // quantization recipe of fp8/mxfp8 runs
  int seq_len = 0;
  int global_batch = 0;                          // sequences per iteration
  int micro_batch = 1;                           // sequences per micro-batch
  StrategySpec strategy;
  std::map<std::string, std::string> collectives;  // dimension ("tp","dp",...) -> algorithm name
  FrameworkSpec framework;                       // host costs, stage split, process memory
  Bytes framework_overhead = 0;                  // per device, bytes
  bool flash_attention = true;                   // fused attention; false = scores, softmax, dropout
                                                 // and context as separate kernels (Megatron before 2022)
  CrossEntropy cross_entropy = CrossEntropy::kUnfused;  // the loss's kernels (see CrossEntropy)
  DropoutSpec dropout;                           // off unless the run sets it
  MoeRouting moe;                                // routing and capacity (MoE models)

  // Derived: routed rows each expert-parallel rank processes, relative to an even share: the
  // capacity when padded, else min(imbalance, capacity) when dropping, else imbalance times the
  // model's padding factor (1 in every preset).
  double expert_load() const {
    if (moe.capacity_factor > 0) return moe.pad_to_capacity ? moe.capacity_factor : std::min(moe.imbalance, moe.capacity_factor);
    return moe.imbalance * model.moe.capacity_factor;
  }
  // Derived: whether an MoE layer's dispatcher synchronises with the host before its all-to-all: the
  // framework's dropless dispatcher does (FrameworkMoe::dispatch_sync); padded to capacity, the
  // split sizes are known without reading the routing counts.
  bool moe_dispatch_syncs() const { return framework.moe.dispatch_sync && !moe.pad_to_capacity; }
  // Derived: micro-batches each pipeline runs per iteration = global / (dp * micro_batch).
  int microbatches() const { return global_batch / (strategy.dp * micro_batch); }
  // Micro-batches whose output-layer weight gradient is deferred to the pipeline flush.
  int deferred_output_wgrads() const { return std::min(strategy.defer_output_wgrad, microbatches()); }
  // Switches off the overlap the framework cannot do, whatever the strategy asks: every stream under
  // blocking launches (the host waits for each kernel, collective and transfer in turn), and weight
  // gradients beside the TP reduction without the asynchronous all-reduce. The loader applies it to
  // every run, the search to every candidate.
  void limit_overlap_to_framework() {
    if (framework.host.launch_blocking) strategy.overlap = OverlapSpec::serial();
    if (!framework.async_tp_grad_reduce) strategy.overlap.tp_grad_reduce = false;
  }
};

}  // namespace trainsim
