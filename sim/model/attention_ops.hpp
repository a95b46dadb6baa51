// Self-attention block of one transformer layer, per device: input norm, QKV projection
// (column-parallel), rotary embedding, fused core attention, output projection (row-parallel),
// residual add; with multi-head latent attention the down- and up-projections of
// sim/model/mla_ops.hpp take the QKV projection's and the rotary embedding's place. Collectives (TP all-reduce / SP gather-scatter, CP ring) are not kernels: the
// task-graph builder inserts them between these.
#pragma once
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/model/kernel.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

// Fraction of the s×context score matrix a causal mask leaves to compute. FlashAttention skips
// fully masked blocks, so it executes half of the non-causal FLOPs (Dao 2023, FlashAttention-2,
// Sec. 4.1: "with causal mask, divide the number by 2"). Under context parallelism with the
// load-balanced (zig-zag) sequence split every device executes half of its s×context block.
inline constexpr double kCausalFraction = 0.5;

// Backward/forward FLOP ratio of fused attention: 5 matmuls in the backward (recomputing QK^T)
// against 2 in the forward (Dao 2023, FlashAttention-2, Sec. 4.1: "multiply forward FLOPs by 2.5").
inline constexpr double kFlashBackwardFactor = 2.5;

// "Model FLOPs" of the core attention forward on this device, as MFU counts them (Narayanan et
// al. SC'21, Sec. 5.1 / App.): non-causal, no recompute: QK^T + PV = 2·b·s·context·(d + dv)·heads/tp, with d
// the query/key and dv the value head width (both head_dim but for MLA) = 4·b·s·context·head_dim·heads/tp.
// With GPT's head_dim·heads = h and no CP this is 4·b·s²·h/t.
[[nodiscard]] Flops core_attention_model_flops(const ModelSpec& m, const Shard& sh);

// Sliding windows (Shard::window > 0) shrink fused attention's work to the key blocks a block of
// queries spans (sim/model/attention_ops.cpp: visited_keys); unfused attention still computes the
// whole s×context score matrix and masks it (Megatron-Core supports windows only in Transformer
// Engine's fused attention).
// The fused core-attention kernel alone: its forward, or its backward (dQ, dK, dV), as
// attention_forward / attention_backward place it when Shard::flash_attention is set.
[[nodiscard]] Kernel core_attention_kernel(const ModelSpec& m, const Shard& sh, bool backward);

// Kernels in execution order. Names: attn_norm, qkv_proj, rope, core_attention, out_proj,
// attn_residual; suffix ".fwd", or ".dgrad"/".wgrad" in the backward.
[[nodiscard]] std::vector<Kernel> attention_forward(const ModelSpec& m, const Shard& sh);
// Backward in execution order: for each GEMM its input gradient (".dgrad") then its weight
// gradient (".wgrad", Kernel::weight_grad = true, deferrable by zero-bubble schedules).
[[nodiscard]] std::vector<Kernel> attention_backward(const ModelSpec& m, const Shard& sh);

}  // namespace trainsim
