#include "sim/analytic/activation_memory.hpp"

#include "sim/model/fp8_quantize.hpp"
#include "sim/model/layer_ops.hpp"
#include "sim/model/mla_ops.hpp"
#include "sim/model/mtp_ops.hpp"
#include "sim/model/moe_ops.hpp"
#include "sim/model/softmax_fusion.hpp"

namespace trainsim {
namespace {

constexpr double kMaskBytes = 1;   // dropout masks: one byte per element
constexpr double kFp32Bytes = 4;   // log-sum-exp, router probabilities, cross-entropy softmax

struct Dims {
  double tokens, seq_tokens, h, d, dv, heads, kv_heads, e, mask;  // d, dv: query/key and value head widths
  double q;      // bytes per element of a saved Linear input: e, or its FP8 copy in 8-bit runs
  bool fp8;
  bool qk_norm;  // the model normalises Q and K heads (ModelSpec::qk_norm)
  // Unfused attention's 16-bit scores go through PyTorch's fp32 softmax (softmax_fusion.hpp), whose
  // autograd keeps its fp32 output besides the 16-bit probabilities it casts back to.
  bool fp32_softmax;
  double b, s, ctx, t;
};

bool selective(const ActivationOptions& opt) { return opt.recompute == Recompute::kSelective; }

Dims dims_of(const ModelSpec& m, const Shard& sh, const ActivationOptions& opt) {
  Dims x{};
  x.tokens = static_cast<double>(gemm_tokens(sh));
  x.seq_tokens = static_cast<double>(sequence_tokens(sh));
  x.h = m.hidden;
  x.d = static_cast<double>(head_dim_of(m));
  x.dv = static_cast<double>(v_head_dim_of(m));
  x.heads = static_cast<double>(local_heads(m, sh));
  x.kv_heads = static_cast<double>(local_kv_heads(m, sh));
  x.e = activation_element_bytes(sh.precision);
  x.fp8 = quantizes(sh);
  x.qk_norm = m.qk_norm;
  x.q = x.fp8 ? quantized_layout_bytes(sh) : x.e;
  x.mask = opt.dropout ? kMaskBytes : 0;
  x.b = static_cast<double>(sh.micro_batch);
  x.s = static_cast<double>(sh.seq);
  x.ctx = static_cast<double>(sh.context);
  x.t = sh.tp;
  x.fp32_softmax = x.e < kFp32Bytes && !fused_softmax_runs(m, sh);
  return x;
}

// Standard attention up to core attention: norm input, QKV input, Q, K, V (and QK-norm's input).
Bytes mha_projection_bytes(const Dims& x) {
  Bytes bytes = x.seq_tokens * x.h * (x.e + x.q);                       // norm input, QKV input
  bytes += x.tokens * (x.heads + 2 * x.kv_heads) * x.d * x.e;            // Q, K, V
  if (x.qk_norm) bytes += x.tokens * (x.heads + x.kv_heads) * x.d * x.e;  // QK-norm input (Q, K before it)
  return bytes;
}

// MLA up to core attention (sim/model/mla_ops.hpp): the norm input; the down-projections' input (one
// 16-bit tensor, or each TELinear's own FP8 copy); each latent norm's input and, as its fused up-projection
// saves it, its output (sequence-sharded, FP8 in 8-bit runs); without query compression q_proj's FP8 copy;
// query, key and value. Selective recompute of mla_up_proj keeps only the checkpoint's inputs (the latents
// and the rotary key head) of everything after the down-projections.
// Selective recompute of layernorm discards the input norm's output, the down-projections' input, keeping
// the norm's input (Megatron-Core's recompute_input_layernorm; in FP8 runs set_for_recompute_input_layernorm
// has the down-projections save that original input, not their FP8 copies, so those go too).
Bytes mla_projection_bytes(const ModelSpec& m, const Shard& sh, const Dims& x, const ActivationOptions& opt) {
  const double latents = mla_latent_elements(m), downs = m.mla.q_lora_rank > 0 ? 2 : 1;
  const bool norm_redone = selective(opt) && opt.modules.layernorm;
  const double down_input = norm_redone ? 0 : x.fp8 ? downs * x.q : x.e;  // bytes per element kept for them
  Bytes bytes = x.seq_tokens * x.h * (x.e + down_input);
  if (selective(opt) && opt.modules.mla_up_proj)
    return bytes + x.seq_tokens * (latents + m.mla.qk_pos_emb_head_dim) * x.e;
  bytes += x.seq_tokens * latents * (x.e + x.q);
  // Without query compression q_proj reads the norm's output too: the same 16-bit tensor, or its own FP8 copy.
  if (m.mla.q_lora_rank == 0 && x.fp8 && !norm_redone) bytes += x.seq_tokens * x.h * x.q;
  return bytes + x.tokens * mla_qkv_elements(m, sh) * x.e;
}

Bytes attention_bytes(const ModelSpec& m, const Shard& sh, const Dims& x, const ActivationOptions& opt) {
  Bytes bytes = m.is_mla() ? mla_projection_bytes(m, sh, x, opt) : mha_projection_bytes(x);
  bytes += x.tokens * x.heads * x.dv * x.e;                              // projection input
  if (x.fp8) bytes += x.tokens * x.heads * x.dv * x.q;                   // and its FP8 copy
  bytes += x.seq_tokens * x.h * x.mask;                                  // dropout after projection
  if (selective(opt) && opt.modules.core_attn) return bytes;
  if (opt.flash_attention) return bytes + x.tokens * x.heads * kFp32Bytes;  // log-sum-exp
  const double scores = x.b * x.heads * x.s * x.ctx;
  bytes += scores * (x.fp32_softmax ? kFp32Bytes : x.e);                 // softmax output (for its backward)
  if (opt.dropout) bytes += scores * (kMaskBytes + x.e);                 // dropout's mask and output
  else if (x.fp32_softmax) bytes += scores * x.e;                        // the 16-bit probabilities it casts to
  return bytes;
}

// A dense FFN of per-device width `width` over `rows` rows: activation input(s) (e bytes) and fc2
// input (q bytes: its FP8 copy in 8-bit runs).
Bytes ffn_inner_bytes(const ModelSpec& m, double rows, double width, const Dims& x) {
  const double gated = m.gated_ffn ? 2 : 1;
  return rows * width * (x.e * gated + x.q);
}

Bytes mlp_bytes(const ModelSpec& m, const Shard& sh, const Dims& x, const ActivationOptions& opt) {
  if (selective(opt) && opt.modules.mlp) return x.seq_tokens * x.h * (x.e + x.mask);  // input, dropout mask
  Bytes bytes = x.seq_tokens * x.h * (x.e + x.q);                       // norm input, fc1 input
  bytes += ffn_inner_bytes(m, x.tokens, static_cast<double>(ceil_div(ffn_hidden_of(m), sh.tp)), x);
  return bytes + x.seq_tokens * x.h * x.mask;                            // dropout mask
}

Bytes moe_bytes(const ModelSpec& m, const Shard& sh, const Dims& x, const ActivationOptions& opt) {
  const bool norm_redone = selective(opt) && opt.modules.layernorm, act_redone = selective(opt) && opt.modules.moe_act;
  Bytes bytes = (norm_redone ? 1 : 2) * x.seq_tokens * x.h * x.e;         // norm input, router input
  bytes += x.seq_tokens * m.moe.experts * kFp32Bytes;                    // router probabilities
  const double rows = static_cast<double>(tokens_per_local_expert(m, sh) * local_experts(m, sh));
  bytes += rows * x.h * (x.q + x.e);                                     // expert input and output
  const double width = static_cast<double>(expert_width(m, sh));
  bytes += ffn_inner_bytes(m, rows, width, x);
  if (act_redone) bytes -= rows * width * x.q;                           // fc2 input: recomputed
  const int64_t shared = static_cast<int64_t>(m.moe.shared_experts) * m.moe.expert_ffn_hidden;
  if (shared > 0) {
    bytes += ffn_inner_bytes(m, x.tokens, static_cast<double>(ceil_div(shared, sh.tp)), x);
    if (x.fp8) bytes += x.tokens * x.h * x.q;                            // their fc1 input's FP8 copy
  }
  return bytes + x.seq_tokens * x.h * x.mask;
}

}  // namespace

Bytes korthikanti_layer_bytes(KorthikantiCase row, double s, double b, double h, double a, double t) {
  const double sbh = s * b * h;
  switch (row) {
    case KorthikantiCase::kNoParallelism: return sbh * (34 + 5 * a * s / h);
    case KorthikantiCase::kTensor: return sbh * (10 + 24 / t + 5 * a * s / (h * t));
    case KorthikantiCase::kTensorSequence: return sbh / t * (34 + 5 * a * s / h);
    case KorthikantiCase::kTensorSelective: return sbh * (10 + 24 / t);
    case KorthikantiCase::kTensorSequenceSelective: return 34 * sbh / t;
    case KorthikantiCase::kFullRecompute: return 2 * sbh;
    case KorthikantiCase::kFullRecomputeSequence: return 2 * sbh / t;
  }
  return 0;
}

Bytes layer_activation_bytes(const ModelSpec& m, const Shard& sh, int layer_index, const ActivationOptions& opt) {
  const Dims x = dims_of(m, sh, opt);
  // An MTP layer's module also keeps its projection part's inputs and its own output head's tensors.
  const bool mtp_layer = is_mtp_layer(m, layer_index);
  const Bytes head = mtp_layer ? last_stage_activation_bytes(m, sh) : 0;
  // Full recompute keeps the layer input only; an MTP module's checkpoint holds its projection and layer
  // together, so it keeps the module's two inputs, not the concatenation or the layer input made inside it.
  if (opt.recompute == Recompute::kFull) return (mtp_layer ? mtp_checkpoint_bytes(m, sh) : x.seq_tokens * x.h * x.e) + head;
  const Bytes mtp = mtp_layer ? mtp_input_activation_bytes(m, sh) + head : 0;
  const Bytes ffn = is_moe_layer(m, layer_index) ? moe_bytes(m, sh, x, opt) : mlp_bytes(m, sh, x, opt);
  return attention_bytes(m, sh, x, opt) + ffn + mtp;
}

Bytes recompute_transient_bytes(const ModelSpec& m, const Shard& sh, int layer_index, const ActivationOptions& opt) {
  if (opt.recompute == Recompute::kNone) return 0;
  ActivationOptions kept = opt;
  kept.recompute = Recompute::kNone;
  return layer_activation_bytes(m, sh, layer_index, kept) - layer_activation_bytes(m, sh, layer_index, opt);
}

Bytes first_stage_activation_bytes(const ModelSpec& m, const Shard& sh, const ActivationOptions& opt) {
  constexpr double kTokenIdBytes = 8;
  const double mask = opt.dropout ? kMaskBytes : 0;
  return static_cast<double>(gemm_tokens(sh)) * kTokenIdBytes +
         static_cast<double>(sequence_tokens(sh)) * m.hidden * mask;
}

Bytes last_stage_activation_bytes(const ModelSpec& m, const Shard& sh) {
  const double e = activation_element_bytes(sh.precision);
  const double logits = static_cast<double>(gemm_tokens(sh)) * static_cast<double>(ceil_div(m.vocab, sh.tp));
  // Kept for the backward: the fp32 softmax, or the 16-bit gradient a fused cross entropy wrote in
  // place of the logits.
  return 2 * static_cast<double>(sequence_tokens(sh)) * m.hidden * e + logits * (sh.fused_cross_entropy ? e : kFp32Bytes);
}

Bytes deferred_output_wgrad_bytes(const ModelSpec& m, const Shard& sh) {
  const double e = activation_element_bytes(sh.precision);
  const double logits = static_cast<double>(gemm_tokens(sh)) * static_cast<double>(ceil_div(m.vocab, sh.tp));
  return (static_cast<double>(sequence_tokens(sh)) * m.hidden + logits) * e;
}

}  // namespace trainsim
