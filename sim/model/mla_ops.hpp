// Multi-head latent attention's projections (DeepSeek-AI 2024, DeepSeek-V2, arXiv 2405.04434, Sec. 2.1;
// DeepSeek-V3, arXiv 2412.19437, Sec. 2.1.1), per device, as Megatron-Core runs them (MLASelfAttention in
// NVIDIA/Megatron-LM megatron/core/transformer/multi_latent_attention.py at commit
// 003b4ce2615f4e501ecbc39e01e0f76d237a35d9; its Transformer Engine layer spec in
// megatron/core/models/gpt/gpt_layer_specs.py at commit efbfb5f05eaa44f7f493e0b11b0db2ee1e7dae0a):
//   q_down_proj   TELinear, parallel_mode "duplicated": every tensor-parallel rank holds the whole
//                 h x q_lora_rank weight and runs it on its own tokens (b·s/t under sequence
//                 parallelism), so it sits outside the TP region (tp_local_gemm);
//   kv_down_proj  the same, h x (kv_lora_rank + qk_pos_emb_head_dim): the key/value latent and the
//                 one rotary key head shared by all heads;
//   q_up_proj     TELayerNormColumnParallelLinear: the query latent's norm, then (SP) the all-gather of
//                 the normalised latent, then q_lora_rank x heads/t·(qk_head_dim + qk_pos_emb_head_dim);
//   kv_up_proj    the same for the key/value latent: kv_lora_rank x heads/t·(qk_head_dim + v_head_dim);
//                 the rotary key head is all-gathered on its own (gather_from_sequence_parallel_region);
//   rotary        q's rotary part, and k's shared one broadcast to every head, concatenated into the
//                 query and key tensors (fused_apply_mla_rope_for_q / _for_kv, or RoPE plus torch.cat:
//                 the same bytes): one memory-bound kernel each for q and for k/v.
// Without query compression (q_lora_rank 0, DeepSeek-V2-Lite) q_proj is a column-parallel
// h x heads/t·(qk_head_dim + qk_pos_emb_head_dim) Linear on the hidden state.
// So sequence parallelism all-gathers (and, in the backward, reduce-scatters) q_lora_rank +
// kv_lora_rank + qk_pos_emb_head_dim elements per token around the attention, not h (tp_input_width).
// The two down-projections' weight gradients are partial sums over the sequence shards; Megatron-Core
// all-reduces them over the TP group once per iteration (finalize_model_grads). That reduction is not
// modelled.
#pragma once
#include <string>
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/model/kernel.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

// Whether a catalogue GEMM runs outside the tensor-parallel region (MLA's duplicated down-projections):
// no TP collective is placed around it.
[[nodiscard]] bool tp_local_gemm(const std::string& kernel_name);

// Elements per token that tensor parallelism moves into (and out of) the attention block's column-
// parallel GEMMs: h for standard attention, the latents and the rotary key head for MLA.
[[nodiscard]] int64_t tp_input_width(const ModelSpec& m);

// Weights of one layer's attention on a device of tensor degree `tp`: the projections (TP-split up- and
// output projections, whole down-projections), and the latent norms' gains.
struct MlaParams {
  int64_t projections = 0, norms = 0;
};
[[nodiscard]] MlaParams mla_params(const ModelSpec& m, int tp);

// From the attention norm's output to the query, key and value tensors of core attention, in execution
// order (down-projections with their 8-bit inputs, latent norms, up-projections, rotary kernels).
[[nodiscard]] std::vector<Kernel> mla_projections_forward(const ModelSpec& m, const Shard& sh);
// From core attention's input gradients to the attention norm's output gradient: the rotary kernels'
// backward, the up- and down-projections' input and weight gradients, the latent norms' backward, and
// autograd's sum of the two down-projections' input gradients.
[[nodiscard]] std::vector<Kernel> mla_projections_backward(const ModelSpec& m, const Shard& sh);

// Elements per token of the tensors core attention reads on this device: query, key and value
// (heads/t·(2·(qk + rope) + v)); what selective recompute of mla_up_proj discards.
[[nodiscard]] double mla_qkv_elements(const ModelSpec& m, const Shard& sh);
// Elements per token the MLA projections save for their backward besides the block input (bf16 or
// the run's activation width): the latent norms' inputs (sequence-sharded).
[[nodiscard]] double mla_latent_elements(const ModelSpec& m);

}  // namespace trainsim
