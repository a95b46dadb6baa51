#include "sim/model/moe_ops.hpp"

#include <cmath>
#include <string>

#include "sim/model/expert_eager_ops.hpp"
#include "sim/model/fp8_quantize.hpp"
#include "sim/model/kernel_builders.hpp"
#include "sim/model/mlp_ops.hpp"
#include "sim/model/router_ops.hpp"

namespace trainsim {
namespace {

constexpr double kUnpermuteFlopsPerElement = 2;  // probability-weighted sum: multiply + add

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

bool moe_gemm_in_tp_region(const std::string& kernel_name, bool whole_experts) {
  return !whole_experts || kernel_name.rfind("moe_shared", 0) == 0;
}

bool moe_block_has_tp(const ModelSpec& m, const StrategySpec& s) {
  return s.tp > 1 && (!s.folds_experts() || m.moe.shared_experts > 0);
}

int64_t expert_width(const ModelSpec& m, const Shard& sh) { return ceil_div(m.moe.expert_ffn_hidden, expert_tp_of(sh)); }

int64_t tokens_per_local_expert(const ModelSpec& m, const Shard& sh) {
  const double rows = sh.expert_load * static_cast<double>(expert_input_tokens(sh)) * m.moe.top_k *
                      sh.ep / static_cast<double>(m.moe.experts);
  return static_cast<int64_t>(std::ceil(rows * (1 - 1e-12)));  // tolerate rounding of exact quotients
}

namespace {

// Sizes shared by the forward and backward of an MoE block on one device.
struct MoeSizes {
  double ab;                // bytes per activation element
  double seq_elements;      // tokens of the non-TP region (sequence-parallel share) * h
  double dispatched;        // rows the local experts process (capacity-padded)
  double all_tokens;        // tokens routed to the experts and combined back (expert_input_tokens)
};

MoeSizes moe_sizes(const ModelSpec& m, const Shard& sh) {
  MoeSizes z;
  z.ab = activation_element_bytes(sh.precision);
  z.seq_elements = static_cast<double>(sequence_tokens(sh)) * m.hidden;
  z.dispatched = static_cast<double>(tokens_per_local_expert(m, sh) * local_experts(m, sh));
  z.all_tokens = static_cast<double>(expert_input_tokens(sh));
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


}  // namespace

std::vector<Kernel> moe_forward(const ModelSpec& m, const Shard& sh) {
  const MoeSizes z = moe_sizes(m, sh);
  const auto [ab, seq_elements, dispatched, all_tokens] = z;
  const double sort = chunk_sort_bytes(m, sh, z);
  Kernel permute = elementwise_kernel("moe_permute.fwd", dispatched * m.hidden, 1, 1, 0, ab);
  permute.bytes += sort;
  std::vector<Kernel> out{norm_forward_kernel("moe_norm.fwd", m.norm, seq_elements, ab)};
  append(out, router_forward(m, sh));
  out.push_back(permute);
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
  const auto [ab, seq_elements, dispatched, all_tokens] = z;
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
  out.push_back(permute);
  append(out, router_backward(m, sh));
  out.push_back(norm_backward_kernel("moe_norm.dgrad", m.norm, seq_elements, ab));
  out.push_back(residual_backward_kernel("moe_residual.dgrad", seq_elements, ab));
  return out;
}

}  // namespace trainsim
