// Activation memory one transformer layer keeps for the backward pass, per device and per
// micro-batch, plus the extras of the first (embedding) and last (output layer) pipeline stages.
#pragma once
#include "sim/config/model_spec.hpp"
#include "sim/config/run_spec.hpp"
#include "sim/core/units.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

// The rows of Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer
// Models"), Table 2: bytes per layer, 16-bit activations, GPT layer with dropout, no flash attention.
enum class KorthikantiCase {
  kNoParallelism,            // sbh(34 + 5as/h)
  kTensor,                   // sbh(10 + 24/t + 5as/(ht))
  kTensorSequence,           // (sbh/t)(34 + 5as/h)
  kTensorSelective,          // sbh(10 + 24/t)
  kTensorSequenceSelective,  // 34·sbh/t
  kFullRecompute,            // 2sbh
  kFullRecomputeSequence,    // 2sbh/t (the stored layer input is sequence-sharded)
};
[[nodiscard]] Bytes korthikanti_layer_bytes(KorthikantiCase row, double s, double b, double h, double a,
                                            double t);

struct ActivationOptions {
  Recompute recompute = Recompute::kNone;  // none / selective (the modules below) / full (whole layer)
  RecomputeModules modules;                // what selective recompute drops (sim/model/recompute_ops.hpp)
  bool flash_attention = true;  // fused attention: keeps O and the fp32 log-sum-exp, no s×s tensors
  bool dropout = false;         // keep 1-byte dropout masks (attention probs, after projections)
};

// General per-layer bytes for one micro-batch on one device. Tensors kept, with
// T = b·s tokens (s = seq/cp), T' = T/t under SP else T, E = activation element bytes:
//  attention:  norm input T'·h·E; QKV input (norm output) T'·h·E; Q,K,V T·(a+2kv)/t·d·E;
//              [QK-norm] its input, Q and K before the norm, T·(a+kv)/t·d·E;
//              [no flash] softmax output b·a/t·s·ctx·E, [+dropout] its mask (1 B) and output (E); where
//              the framework's rule sends the scores through PyTorch's fp32 softmax (softmax_fusion.hpp)
//              that output is kept at 4 B, and without dropout the 16-bit probabilities besides it (E);
//              [flash] log-sum-exp T·a/t·4 B (dropped by selective recompute);
//              projection input T·a/t·d·E; [dropout] mask T'·h·1 B.
//  dense MLP:  norm input T'·h·E; fc1 input T'·h·E; activation input T·ffn/t·E (×2 gated);
//              fc2 input T·ffn/t·E; [dropout] mask T'·h·1 B.
//  MoE:        norm input, router input T'·h·E; router probabilities T'·experts·4 B; per routed
//              row R = rows/expert·experts/ep: expert fc1 input R·h·E, activation input
//              R·f_e/t·E (×2 gated), fc2 input R·f_e/t·E, expert output R·h·E (for the
//              probability gradient); shared experts as a dense MLP of width shared·f_e.
//  8-bit runs (Transformer Engine, sim/model/fp8_quantize.hpp): a Linear saves its input as the FP8
//              copy its weight-gradient GEMM reads (1 B, mxfp8 33/32 B) instead of the bf16 tensor:
//              the QKV and fc1 inputs (the norms' FP8 outputs), fc2 and expert fc1/fc2 inputs; the
//              projection input stays bf16 for fused attention's backward and adds its FP8 copy.
//  selective recompute drops, per module: core_attn the s×ctx tensors (and the log-sum-exp);
//  layernorm the MoE router input (the norm's output); moe_act the expert fc2 input; mlp all of a
//  dense MLP block but its input T'·h·E and dropout mask. Full recompute keeps only the layer
//  input T'·h·E. With MHA, ffn=4h, dropout, no flash, 16 bit this reproduces every row
//  of Korthikanti Table 2 exactly (tests check it).
[[nodiscard]] Bytes layer_activation_bytes(const ModelSpec& m, const Shard& sh, int layer_index,
                                           const ActivationOptions& opt);

// What a recomputed layer holds beyond its kept bytes while its backward runs, for one micro-batch:
// the backward reruns the layer's forward (Megatron's checkpointed forward, one layer per checkpoint;
// selective recompute reruns its modules), and what that rerun saves lives until the layer's own
// backward frees it, so one layer at a time holds what it would keep without recompute.
// layer_activation_bytes with recompute none minus with `opt`; 0 when `opt` recomputes nothing.
// Korthikanti Table 2 rows give it by hand: TP+SP full recompute (sbh/t)(34 + 5as/h) - 2sbh/t.
[[nodiscard]] Bytes recompute_transient_bytes(const ModelSpec& m, const Shard& sh, int layer_index,
                                              const ActivationOptions& opt);

// First stage, per micro-batch: int64 token ids 8·b·s B (every TP rank holds them) and, with
// dropout, the embedding dropout mask T'·h·1 B (Korthikanti 2022 Sec. 4.3; Megatron
// theoretical_memory_usage counts the same two terms).
[[nodiscard]] Bytes first_stage_activation_bytes(const ModelSpec& m, const Shard& sh,
                                                 const ActivationOptions& opt);
// Last stage, per micro-batch: final-norm input T'·h·E, logits-GEMM input T'·h·E (stored
// sequence-sharded under SP) and the fp32 softmax of the cross entropy 4·T·V/t B.
// With SP and 16 bit: 4sbh/t·(1 + V/h) (Korthikanti 2022 Sec. 4.3). A fused cross entropy
// (Shard::fused_cross_entropy) keeps its 16-bit gradient in place of the logits instead: E·T·V/t B.
[[nodiscard]] Bytes last_stage_activation_bytes(const ModelSpec& m, const Shard& sh);
// Last stage, per micro-batch whose output-layer weight gradient is deferred to the flush
// (strategy.defer_output_wgrad): the logits GEMM's input T'·h·E (sequence-sharded under SP; Megatron
// gathers it again at the flush, which the replay does not model) and its 16-bit output gradient
// E·T·V/t, kept until that GEMM runs. An upper bound: counted on top of the schedule's peak.
[[nodiscard]] Bytes deferred_output_wgrad_bytes(const ModelSpec& m, const Shard& sh);

}  // namespace trainsim
