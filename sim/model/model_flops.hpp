// "Model FLOPs" of one training iteration, the numerator of MFU: the FLOPs the model needs,
// independent of how the run executes them (no causal skipping, no recompute, no padding).
#pragma once
#include <cstdint>

#include "sim/config/model_spec.hpp"
#include "sim/core/units.hpp"

namespace trainsim {

// Narayanan et al., SC'21 ("Efficient Large-Scale Language Model Training on GPU Clusters
// Using Megatron-LM"), eq. (3), for a GPT-style model (MHA, ffn = 4h, non-gated):
//   full_recompute: F = 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h))   (forward counted twice)
//   otherwise (Korthikanti et al. 2022, Sec. 6):  F = 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h))
// B = global batch (sequences), s = sequence length. Uses only layers, hidden, vocab.
[[nodiscard]] Flops megatron_flops(const ModelSpec& m, int64_t global_batch, int64_t seq,
                                   bool full_recompute);

// Megatron-LM's count (megatron/training/training.py num_floating_point_operations, 2025-26; the same
// as Megatron-Bridge's training/utils/flop_utils.py transformer_flops), which its logs and recipe
// tables report as model TFLOP/s: per token and layer 6·(h·(q + 2k) + q·h) for the attention
// projections (q = heads·head_dim, k = kv_heads·head_dim), 6·q·s for scores and values over the
// causal half of the keys, 6·h·ffn·m for a dense FFN or 6·h·expert_ffn·m·(top_k + shared) for an MoE
// one (m = 3 gated, 2 otherwise; no router term), and 6·h·V for the logits. Every layer counts full
// causal attention (no sliding window). A GPT-style model (MHA, ffn 4h) gives
// 72·B·s·l·h²·(1 + s/(12h) + V/(12·l·h)): Korthikanti's count with causal attention. With multi-head
// latent attention its MLA branch: 6·(q_term + r_kv·(h + n·(d_qk + d_v) + 1) + h·d_rope + n·d_v·h +
// s·n·(d_qk + d_rope)/2 + s·n·d_v/2), q_term = r_q·(h + n·(d_qk + d_rope) + 1) (r_q = q_lora_rank, the
// 1s its latent norms), or h·n·(d_qk + d_rope) without query compression. Multi-token prediction
// (mtp_layers k): k more layers of the last layer's kind, 6·k·(3h + 2h²) for their norms and eh_proj,
// and the logits term times 1 + k.
[[nodiscard]] Flops megatron_lm_flops(const ModelSpec& m, int64_t global_batch, int64_t seq);

// Forward matmul FLOPs of layer `layer_index` (an MTP layer too: sim/model/layer_ops.hpp) for
// `sequences` sequences of `seq` tokens: QKV 2·B·s·h·(a + 2·kv)·d, attention 4·B·s²·a·d (non-causal), output projection 2·B·s·a·d·h,
// and the FFN: dense matrices·2·B·s·h·ffn, or MoE router 2·B·s·h·E plus (top_k + shared)
// experts of matrices·2·B·s·h·expert_ffn each (capacity padding not counted).
[[nodiscard]] Flops layer_forward_model_flops(const ModelSpec& m, int layer_index, int64_t sequences,
                                              int64_t seq);

// Every layer's forward, with MTP modules their layers and eh_proj 2·B·s·2h·h: what full recompute re-runs
// (no logits).
[[nodiscard]] Flops layers_forward_model_flops(const ModelSpec& m, int64_t sequences, int64_t seq);

// All layers + the logits GEMM 2·B·s·h·V (the embedding gather has no FLOPs); with MTP modules their
// layers, eh_proj 2·B·s·2h·h and logits each too. With MLA, the projections' 2 FLOPs per weight and
// token and the attention over d + dv.
[[nodiscard]] Flops forward_model_flops(const ModelSpec& m, int64_t sequences, int64_t seq);

// 3 × forward_model_flops: backward = 2 × forward (input and weight gradients), Narayanan
// SC'21 Sec. 5.1. Equals megatron_flops(..., false) exactly for a GPT-style model.
[[nodiscard]] Flops model_flops(const ModelSpec& m, int64_t global_batch, int64_t seq);

}  // namespace trainsim
