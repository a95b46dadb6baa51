#include "sim/model/attention_ops.hpp"

#include <algorithm>
#include <cmath>

#include "sim/model/fp8_quantize.hpp"
#include "sim/model/kernel_builders.hpp"
#include "sim/model/mla_ops.hpp"
#include "sim/model/rope_ops.hpp"
#include "sim/model/softmax_fusion.hpp"
#include "sim/model/unfused_attention.hpp"

namespace trainsim {
namespace {

constexpr double kSoftmaxStatBytes = 4;      // fp32 log-sum-exp per query row and head

// Query rows (and key columns) of one block of fused attention: FlashAttention-2 picks blocks of
// 64 or 128 (Dao 2023, arXiv 2307.08691, Sec. 3.3); 128 assumed (unconfirmed for cuDNN's kernels).
constexpr double kFlashTile = 128;

struct AttentionDims {
  double b, s, ctx, window, d, dv, heads, kv_heads, h;  // d: a query/key head's width, dv: a value head's
  double tokens, seq_tokens;
  Precision gemm_p, act_p;  // weight GEMMs; attention's own math and the tensors around it
  double act_bytes;
  bool attention_dropout, hidden_dropout;
};

AttentionDims dims_of(const ModelSpec& m, const Shard& sh) {
  AttentionDims a{};
  a.b = static_cast<double>(sh.micro_batch);
  a.s = static_cast<double>(sh.seq);
  a.ctx = static_cast<double>(sh.context);
  a.window = static_cast<double>(sh.window);
  a.d = static_cast<double>(head_dim_of(m));
  a.dv = static_cast<double>(v_head_dim_of(m));
  a.heads = static_cast<double>(local_heads(m, sh));
  a.kv_heads = static_cast<double>(local_kv_heads(m, sh));
  a.h = static_cast<double>(m.hidden);
  a.tokens = static_cast<double>(gemm_tokens(sh));
  a.seq_tokens = static_cast<double>(sequence_tokens(sh));
  a.gemm_p = sh.precision;
  a.act_p = activation_precision(sh.precision);
  a.act_bytes = activation_element_bytes(sh.precision);
  a.attention_dropout = sh.attention_dropout > 0;
  a.hidden_dropout = sh.hidden_dropout > 0;
  return a;
}

int64_t qkv_width(const ModelSpec& m, const Shard& sh) {
  return (local_heads(m, sh) + 2 * local_kv_heads(m, sh)) * head_dim_of(m);
}

bool rotary(const ModelSpec& m) {
  return m.position_embedding == PositionEmbedding::kRope || m.position_embedding == PositionEmbedding::kYarn;
}

// With a sliding window of W keys, the keys a block of queries past the first W spans: its W keys
// back plus the diagonal block, ceil((W - 1) / tile) + 1 blocks. The longest query tile's span.
double window_span_keys(const AttentionDims& a) {
  return kFlashTile * (std::ceil((a.window - 1) / kFlashTile) + 1);
}

// Keys one query's fused attention computes scores for on average: half the context under the causal
// mask. With a sliding window spanning n + 1 blocks (n blocks back), query tile q < n at the start of
// the sequence spans only its q + 1 blocks, so over the context's Q tiles the mean is
// (n + 1)(1 - n / 2Q) blocks: the span times 1 - n·tile / (2·context); never more than the causal
// half. cuDNN on an H100 follows it from W = 128 to 2048 at 4096 tokens
// (validation/kernels/h100-sxm-attention-window.yaml).
double visited_keys(const AttentionDims& a) {
  const double causal = kCausalFraction * a.ctx;
  if (a.window <= 0) return causal;
  const double span = window_span_keys(a);
  const double ramp = 1 - std::min(span - kFlashTile, a.ctx) / (2 * a.ctx);
  return std::min(causal, span * ramp);
}

// What both passes of fused attention share: `flops_factor` times the causal forward FLOPs,
// `tensor_elements` activation-sized elements of HBM traffic plus the fp32 softmax statistics,
// the keys each query loops over and, with attention dropout, one random number per computed
// score (the backward regenerates the mask from the seed rather than storing it).
Kernel fused_attention_kernel(const char* name, const ModelSpec& m, const Shard& sh, double flops_factor,
                              double tensor_elements, bool backward) {
  const AttentionDims a = dims_of(m, sh);
  Kernel k;
  k.name = name;
  k.cls = KernelClass::kAttention;
  k.precision = a.act_p;
  const double keys = visited_keys(a);
  k.flops = flops_factor * (a.window > 0 ? keys / a.ctx : kCausalFraction) * core_attention_model_flops(m, sh);
  k.bytes = tensor_elements * a.act_bytes + a.b * a.s * a.heads * kSoftmaxStatBytes;
  k.attention_keys = keys;
  // The tail (sim/analytic/compute_time.hpp): the longest query tile spans the whole context, or
  // with a window the window's span; one tile per 128 queries of each head.
  k.attention_max_keys = a.window > 0 ? std::min(a.ctx, window_span_keys(a)) : a.ctx;
  k.attention_tiles = a.b * a.heads * std::ceil(a.s / kFlashTile);
  k.attention_backward = backward;
  k.random_elements = a.attention_dropout ? a.b * a.heads * a.s * k.attention_keys : 0;
  return k;
}

// Fused attention reads Q (s rows) and K, V (the whole context) and writes O plus the softmax
// statistics; the s×context scores never reach HBM. Q and K are d wide per head, V and O dv.
Kernel core_attention_forward(const ModelSpec& m, const Shard& sh) {
  const AttentionDims a = dims_of(m, sh);
  const double q_and_o = a.b * a.s * a.heads * (a.d + a.dv);
  const double kv = a.b * a.ctx * a.kv_heads * (a.d + a.dv);
  return fused_attention_kernel("core_attention.fwd", m, sh, 1, q_and_o + kv, false);
}

// Backward reads Q, K, V, O, dO and the statistics, writes dQ, dK, dV.
Kernel core_attention_backward(const ModelSpec& m, const Shard& sh) {
  const AttentionDims a = dims_of(m, sh);
  const double q_sized = 2 * a.b * a.s * a.heads * (a.d + a.dv);        // Q, dQ (d); O, dO (dv)
  const double kv_sized = 2 * a.b * a.ctx * a.kv_heads * (a.d + a.dv);  // K, dK (d); V, dV (dv)
  return fused_attention_kernel("core_attention.dgrad", m, sh, kFlashBackwardFactor, q_sized + kv_sized, true);
}

// The unfused path's shape: the layer's dims, and whether the framework's rule takes it to the fused softmax.
UnfusedAttention unfused_of(const AttentionDims& a, const ModelSpec& m, const Shard& sh) {
  UnfusedAttention u;
  u.b = a.b;
  u.heads = a.heads;
  u.s = a.s;
  u.ctx = a.ctx;
  u.d = (a.d + a.dv) / 2;  // QK^T over d, PV over dv: the FLOPs of two GEMMs over their mean
  u.p = a.act_p;
  u.element_bytes = a.act_bytes;
  u.dropout = a.attention_dropout;
  u.fused_softmax = fused_softmax_runs(m, sh);
  return u;
}

// Standard attention's backward from the rotary embedding to the QKV projection's weight gradient.
std::vector<Kernel> mha_projections_backward(const ModelSpec& m, const Shard& sh, const AttentionDims& a) {
  const int64_t t = gemm_tokens(sh);
  const int64_t h = m.hidden;
  const int64_t qkv = qkv_width(m, sh);
  const double rope_elements = a.tokens * (a.heads + a.kv_heads) * a.d;
  std::vector<Kernel> out;
  if (rotary(m)) out.push_back(rope_kernel(rope_elements, a.act_bytes, sh.eager_yarn_rope, a.s * a.d, true));
  if (m.qk_norm) out.push_back(norm_backward_kernel("qk_norm.dgrad", m.norm, rope_elements, a.act_bytes));
  append(out, quantize_kernels("qkv_proj.output_grad", a.tokens * static_cast<double>(qkv), sh, true));
  out.push_back(gemm_kernel("qkv_proj.dgrad", {t, h, qkv, 1}, a.gemm_p));
  append(out, as_weight_grad(norm_output_transpose("attn_norm.output", a.tokens * a.h, sh, sp_gathers(sh))));
  out.push_back(gemm_kernel("qkv_proj.wgrad", {h, qkv, t, 1}, a.gemm_p, true));
  return out;
}

}  // namespace

Flops core_attention_model_flops(const ModelSpec& m, const Shard& sh) {
  const AttentionDims a = dims_of(m, sh);
  return 2 * a.b * a.s * a.ctx * (a.d + a.dv) * a.heads;
}

Kernel core_attention_kernel(const ModelSpec& m, const Shard& sh, bool backward) {
  return backward ? core_attention_backward(m, sh) : core_attention_forward(m, sh);
}

// FP8 runs (sim/model/fp8_quantize.hpp): the norm feeds the column-parallel QKV GEMM (LayerNormLinear),
// the attention output is cast+transposed for the projection; in the backward each input-gradient GEMM's
// output gradient is quantized (gathered first under SP for the row-parallel projection) and the weight
// gradients read transposed FP8 copies.
// With MLA the norm feeds the two down-projections (TELinear, which quantize their own inputs) and
// sim/model/mla_ops.hpp has the kernels up to the query, key and value tensors.
std::vector<Kernel> attention_forward(const ModelSpec& m, const Shard& sh) {
  const AttentionDims a = dims_of(m, sh);
  const int64_t t = gemm_tokens(sh);
  const int64_t h = m.hidden;
  const int64_t q_width = local_heads(m, sh) * v_head_dim_of(m);
  const double rope_elements = a.tokens * (a.heads + a.kv_heads) * a.d;  // rotates Q and K
  Kernel norm = norm_forward_kernel("attn_norm.fwd", m.norm, a.seq_tokens * a.h, a.act_bytes);
  std::vector<Kernel> out;
  if (m.is_mla()) {
    out.push_back(norm);
    append(out, mla_projections_forward(m, sh));
  } else {
    out = norm_into_fp8_gemm(norm, a.seq_tokens * a.h, sh, sp_gathers(sh));
    out.push_back(gemm_kernel("qkv_proj.fwd", {t, qkv_width(m, sh), h, 1}, a.gemm_p));
    if (m.qk_norm) out.push_back(norm_forward_kernel("qk_norm.fwd", m.norm, rope_elements, a.act_bytes));
    if (rotary(m)) out.push_back(rope_kernel(rope_elements, a.act_bytes, sh.eager_yarn_rope, a.s * a.d, false));
  }
  if (sh.flash_attention)
    out.push_back(core_attention_forward(m, sh));
  else
    append(out, unfused_attention_forward(unfused_of(a, m, sh)));
  append(out, quantize_kernels("out_proj.input", a.tokens * static_cast<double>(q_width), sh, true));
  out.push_back(gemm_kernel("out_proj.fwd", {t, h, q_width, 1}, a.gemm_p));
  out.push_back(residual_forward_kernel("attn_residual.fwd", a.seq_tokens * a.h, a.hidden_dropout, a.act_bytes));
  return out;
}

std::vector<Kernel> attention_backward(const ModelSpec& m, const Shard& sh) {
  const AttentionDims a = dims_of(m, sh);
  const int64_t t = gemm_tokens(sh);
  const int64_t h = m.hidden;
  const int64_t q_width = local_heads(m, sh) * v_head_dim_of(m);
  const bool gathered = sp_gathers(sh);
  std::vector<Kernel> out;
  if (a.hidden_dropout) out.push_back(dropout_backward_kernel("attn_dropout.dgrad", a.seq_tokens * a.h, a.act_bytes));
  append(out, row_parallel_output_grad("out_proj", a.seq_tokens * a.h, a.tokens * a.h, sh));
  out.push_back(gemm_kernel("out_proj.dgrad", {t, q_width, h, 1}, a.gemm_p));
  append(out, as_weight_grad(gathered ? fp8_transpose_kernels("out_proj.output_grad", a.tokens * a.h, sh)
                                      : std::vector<Kernel>{}));
  out.push_back(gemm_kernel("out_proj.wgrad", {q_width, h, t, 1}, a.gemm_p, true));
  if (sh.flash_attention)
    out.push_back(core_attention_backward(m, sh));
  else
    append(out, unfused_attention_backward(unfused_of(a, m, sh)));
  append(out, m.is_mla() ? mla_projections_backward(m, sh) : mha_projections_backward(m, sh, a));
  append(out, {
      norm_backward_kernel("attn_norm.dgrad", m.norm, a.seq_tokens * a.h, a.act_bytes),
      residual_backward_kernel("attn_residual.dgrad", a.seq_tokens * a.h, a.act_bytes),
  });
  return out;
}

}  // namespace trainsim
