#include "sim/model/moe_ops.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "sim/model/expert_eager_ops.hpp"
#include "sim/model/fp8_quantize.hpp"
#include "sim/model/kernel_builders.hpp"
#include "sim/model/mlp_ops.hpp"

namespace trainsim {
namespace {

constexpr double kTopkFlopsPerElement = 5;  // softmax (max, exp, sum, divide) + top-k compare
constexpr double kUnpermuteFlopsPerElement = 2;  // probability-weighted sum: multiply + add
constexpr double kRouterProbBytes = 4;      // routing scores kept in fp32
constexpr double kFp32Bytes = 4;

int64_t expert_width(const ModelSpec& m, const Shard& sh) { return ceil_div(m.moe.expert_ffn_hidden, sh.tp); }
int64_t shared_width(const ModelSpec& m, const Shard& sh) {
  return ceil_div(static_cast<int64_t>(m.moe.shared_experts) * m.moe.expert_ffn_hidden, sh.tp);
}
int64_t gated_factor(const ModelSpec& m) { return m.gated_ffn ? 2 : 1; }

// The expert GEMMs as the framework launches them: one grouped kernel, or one kernel per expert.
std::vector<Kernel> as_launched(std::vector<Kernel> kernels, const Shard& sh, int64_t experts) {
  if (!sh.per_expert_gemms) return kernels;
  for (Kernel& k : kernels)
    if (k.cls == KernelClass::kGemm) k.launches = static_cast<int>(experts);
  return kernels;
}

// Grouped GEMMs and activation of the local experts, forward or backward.
std::vector<Kernel> expert_kernels(const ModelSpec& m, const Shard& sh, bool backward) {
  const Precision gp = sh.precision;
  const double ab = activation_element_bytes(sh.precision);
  const int64_t rows = tokens_per_local_expert(m, sh);
  const int64_t experts = local_experts(m, sh);
  const int64_t w = expert_width(m, sh);
  const int64_t fc1 = gated_factor(m) * w;
  const int64_t h = m.hidden;
  const double act_elements = static_cast<double>(rows * experts * w);
  const double act_in = static_cast<double>(gated_factor(m));
  const double act_flops = m.gated_ffn ? 6 : 8;  // as mlp_ops: SwiGLU ≈ 6, GeLU ≈ 8 FLOP/element
  // 8-bit runs: TE GroupedLinear quantizes the local experts' inputs (and output gradients) in one call
  // per GEMM, as one multi-tensor kernel under delayed scaling and expert by expert otherwise
  // (sim/model/fp8_quantize.hpp).
  const double rows_h = static_cast<double>(rows * experts * h);
  const double rows_fc1 = static_cast<double>(rows * experts * fc1);
  const int e = static_cast<int>(experts);
  // Eager operations around the experts (sim/model/expert_eager_ops.hpp): the clamped activation's
  // clamps before it, the fc2 bias added per expert after fc2 (so first in the backward).
  std::vector<Kernel> clamp, bias;
  if (sh.separate_glu_clamp) clamp.push_back(glu_clamp_kernel(act_elements, ab, backward));
  if (sh.per_expert_bias) bias.push_back(expert_bias_kernel(rows_h, experts, ab, backward));
  if (!backward) {
    std::vector<Kernel> out = quantize_kernels("moe_expert_fc1.input", rows_h, sh, true, e);
    out.push_back(gemm_kernel("moe_expert_fc1.fwd", {rows, fc1, h, experts}, gp));
    append(out, clamp);
    out.push_back(elementwise_kernel("moe_expert_act.fwd", act_elements, act_in, 1, act_flops, ab));
    append(out, quantize_kernels("moe_expert_fc2.input", act_elements, sh, true, e));
    out.push_back(gemm_kernel("moe_expert_fc2.fwd", {rows, h, w, experts}, gp));
    append(out, bias);
    return as_launched(out, sh, experts);
  }
  std::vector<Kernel> out = bias;
  append(out, quantize_kernels("moe_expert_fc2.output_grad", rows_h, sh, true, e));
  append(out, {gemm_kernel("moe_expert_fc2.dgrad", {rows, w, h, experts}, gp),
               gemm_kernel("moe_expert_fc2.wgrad", {w, h, rows, experts}, gp, true),
               elementwise_kernel("moe_expert_act.dgrad", act_elements, act_in + 1, act_in, 2 * act_flops, ab)});
  append(out, clamp);
  append(out, quantize_kernels("moe_expert_fc1.output_grad", rows_fc1, sh, true, e));
  append(out, {gemm_kernel("moe_expert_fc1.dgrad", {rows, h, fc1, experts}, gp),
               gemm_kernel("moe_expert_fc1.wgrad", {h, fc1, rows, experts}, gp, true)});
  return as_launched(out, sh, experts);
}

}  // namespace

int64_t tokens_per_local_expert(const ModelSpec& m, const Shard& sh) {
  const double rows = sh.expert_load * static_cast<double>(gemm_tokens(sh)) * m.moe.top_k *
                      sh.ep / static_cast<double>(m.moe.experts);
  return static_cast<int64_t>(std::ceil(rows * (1 - 1e-12)));  // tolerate rounding of exact quotients
}

namespace {

// Sizes shared by the forward and backward of an MoE block on one device.
struct MoeSizes {
  Precision router_p;       // the router GEMM's math: activation precision (not a TE module)
  double ab;                // bytes per activation element
  int64_t route_tokens;     // tokens the router sees (sequence-parallel share)
  double seq_elements;      // route_tokens * h
  double dispatched;        // rows the local experts process (capacity-padded)
  double all_tokens;        // tokens entering the expert GEMMs
};

MoeSizes moe_sizes(const ModelSpec& m, const Shard& sh) {
  MoeSizes z;
  z.router_p = activation_precision(sh.precision);
  z.ab = activation_element_bytes(sh.precision);
  z.route_tokens = sequence_tokens(sh);
  z.seq_elements = static_cast<double>(z.route_tokens) * m.hidden;
  z.dispatched = static_cast<double>(tokens_per_local_expert(m, sh) * local_experts(m, sh));
  z.all_tokens = static_cast<double>(gemm_tokens(sh));
  return z;
}

// The alltoall dispatcher's chunk sort (Shard::chunk_sort): after the exchange it reorders the
// received rows from source-rank order into expert order, and before the return exchange back; each
// is one read and one write of the routed rows (TE's fused sort kernels; the fp32 routing
// probabilities it moves along are 2 bytes per h-wide row, left out). Counted into the permutation
// kernel on the other side of the exchange (permute + sort, unsort + unpermute, and their backwards):
// that moves the sort's time across the exchange, which changes nothing while the experts wait for
// the exchange (no EP overlap), and shifts it by one exchange when they overlap (strategy.overlap.ep_comm).
double chunk_sort_bytes(const ModelSpec& m, const Shard& sh, const MoeSizes& z) {
  return sh.chunk_sort ? 2 * z.dispatched * m.hidden * z.ab : 0;
}


// A cast of `elements` elements from `from` to `to` bytes each: one read, one write.
Kernel cast_kernel(std::string name, double elements, double from, double to) {
  Kernel k = elementwise_kernel(std::move(name), elements, 1, 0, 0, from);
  k.bytes += elements * to;
  return k;
}

// The router's backward with fp32 logits (--moe-router-dtype fp32), as Megatron-Core's
// RouterGatingLinearFunction runs it with Transformer Engine (megatron/core/transformer/moe/
// moe_utils.py): the weight cast to fp32 and the input gradient's GEMM on fp32 operands, cast back
// to the input's precision; the input cast to fp32 and the weight gradient's GEMM, cast back to the
// weight's precision. TE's cuBLASLt GEMM computes fp32 operands as TF32 (CUBLAS_COMPUTE_32F_FAST_TF32,
// transformer_engine/common/gemm/cublaslt_gemm.cu), so both GEMMs are kTf32 (platforms without TF32
// fall back to fp32). Measured on an H100 at the MoE rows' shapes: validation/kernels/h100-sxm-router-*.yaml.
// The forward's GEMM takes the 16-bit operands as they are and writes fp32 logits: as before.
std::vector<Kernel> fp32_router_backward(const ModelSpec& m, const MoeSizes& z) {
  const double weight = static_cast<double>(m.hidden) * m.moe.experts;
  Kernel input_cast = cast_kernel("router_input_cast.wgrad", z.seq_elements, z.ab, kFp32Bytes);
  Kernel weight_cast_back = cast_kernel("router_weight_cast.wgrad", weight, kFp32Bytes, z.ab);
  input_cast.weight_grad = weight_cast_back.weight_grad = true;  // work of the weight gradient alone
  return {
      cast_kernel("router_weight_cast.dgrad", weight, z.ab, kFp32Bytes),
      gemm_kernel("router.dgrad", {z.route_tokens, m.hidden, m.moe.experts, 1}, Precision::kTf32),
      cast_kernel("router_grad_cast.dgrad", z.seq_elements, kFp32Bytes, z.ab),
      input_cast,
      gemm_kernel("router.wgrad", {m.hidden, m.moe.experts, z.route_tokens, 1}, Precision::kTf32, true),
      weight_cast_back,
  };
}
}  // namespace

std::vector<Kernel> moe_forward(const ModelSpec& m, const Shard& sh) {
  const MoeSizes z = moe_sizes(m, sh);
  const auto [router_p, ab, route_tokens, seq_elements, dispatched, all_tokens] = z;
  const double sort = chunk_sort_bytes(m, sh, z);
  Kernel permute = elementwise_kernel("moe_permute.fwd", dispatched * m.hidden, 1, 1, 0, ab);
  permute.bytes += sort;
  std::vector<Kernel> out{
      norm_forward_kernel("moe_norm.fwd", m.norm, seq_elements, ab),
      gemm_kernel("router.fwd", {route_tokens, m.moe.experts, m.hidden, 1}, router_p),
      elementwise_kernel("router_topk.fwd", static_cast<double>(route_tokens) * m.moe.experts, 1, 1,
                         kTopkFlopsPerElement, kRouterProbBytes),
      permute,
  };
  append(out, expert_kernels(m, sh, false));
  // Un-permute reads the expert outputs and writes one combined row per token.
  Kernel unpermute = elementwise_kernel("moe_unpermute.fwd", dispatched * m.hidden, 1, 0,
                                        kUnpermuteFlopsPerElement, ab);
  unpermute.bytes += all_tokens * m.hidden * ab + sort;
  out.push_back(unpermute);
  if (m.moe.shared_experts > 0) append(out, ffn_forward_kernels("moe_shared", m, sh, gemm_tokens(sh), shared_width(m, sh), false));
  out.push_back(residual_forward_kernel("moe_residual.fwd", seq_elements, sh.hidden_dropout > 0, ab));
  return out;
}

std::vector<Kernel> moe_backward(const ModelSpec& m, const Shard& sh) {
  const MoeSizes z = moe_sizes(m, sh);
  const auto [router_p, ab, route_tokens, seq_elements, dispatched, all_tokens] = z;
  const double sort = chunk_sort_bytes(m, sh, z);
  std::vector<Kernel> out;
  if (sh.hidden_dropout > 0) out.push_back(dropout_backward_kernel("moe_dropout.dgrad", seq_elements, ab));
  if (m.moe.shared_experts > 0)
    append(out, ffn_backward_kernels("moe_shared", m, sh, gemm_tokens(sh), shared_width(m, sh), false));
  // Un-permute backward reads the token gradients (and expert outputs for the probability
  // gradient) and writes the expert-order gradients.
  Kernel unpermute = elementwise_kernel("moe_unpermute.dgrad", dispatched * m.hidden, 1, 1,
                                        kUnpermuteFlopsPerElement, ab);
  unpermute.bytes += all_tokens * m.hidden * ab + sort;
  out.push_back(unpermute);
  append(out, expert_kernels(m, sh, true));
  Kernel permute = elementwise_kernel("moe_permute.dgrad", dispatched * m.hidden, 1, 1, 1, ab);
  permute.bytes += sort;
  append(out, {
      permute,
      elementwise_kernel("router_topk.dgrad", static_cast<double>(route_tokens) * m.moe.experts, 2, 1,
                         kTopkFlopsPerElement, kRouterProbBytes),
  });
  append(out, sh.router_fp32 ? fp32_router_backward(m, z) : std::vector<Kernel>{
      gemm_kernel("router.dgrad", {route_tokens, m.hidden, m.moe.experts, 1}, router_p),
      gemm_kernel("router.wgrad", {m.hidden, m.moe.experts, route_tokens, 1}, router_p, true),
  });
  out.push_back(norm_backward_kernel("moe_norm.dgrad", m.norm, seq_elements, ab));
  return out;
}

}  // namespace trainsim
