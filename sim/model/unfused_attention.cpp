// Unfused attention's kernels (see unfused_attention.hpp).
#include "sim/model/unfused_attention.hpp"

#include <cstdint>

#include "sim/model/kernel_builders.hpp"

namespace trainsim {
namespace {

constexpr double kSoftmaxFlopsPerElement = 5;  // scale, mask, max, exp, normalise (memory-bound anyway)
constexpr double kAttentionMaskBytes = 1;      // a dropout mask keeps one byte per element
constexpr double kTorchSoftmaxBytes = 4;       // PyTorch's fallback softmax runs in fp32

// A 1-byte dropout mask as a fraction of one score element.
double mask_fraction(const UnfusedAttention& a) { return kAttentionMaskBytes / a.element_bytes; }

// The scores' scale, mask and softmax in the forward: Megatron's fused kernel (reads and writes the
// 16-bit scores), or, where the framework's rule does not take the shape (softmax_fusion.hpp),
// FusedScaleMaskSoftmax.forward_torch_softmax: 16-bit scores cast to fp32, scaled, masked in place,
// normalised, cast back, each a pass over HBM (fp32 runs skip the casts). Megatron-Core, whose query-key
// layer scaling is off by default, skips the scale but multiplies the probabilities by its
// zero-attention mask after the softmax: as many passes of the same size.
std::vector<Kernel> softmax_forward(const UnfusedAttention& a, double scores) {
  if (a.fused_softmax)
    return {elementwise_kernel("attn_softmax.fwd", scores, 1, 1, kSoftmaxFlopsPerElement, a.element_bytes)};
  const bool casts = a.element_bytes < kTorchSoftmaxBytes;
  const double narrow = a.element_bytes / kTorchSoftmaxBytes;  // a 16-bit tensor in fp32 elements
  std::vector<Kernel> out;
  if (casts) out.push_back(elementwise_kernel("attn_softmax_cast.fwd", scores, narrow, 1, 0, kTorchSoftmaxBytes));
  out.push_back(elementwise_kernel("attn_softmax_scale.fwd", scores, 1, 1, 1, kTorchSoftmaxBytes));
  out.push_back(elementwise_kernel("attn_softmax_mask.fwd", scores, 1, 1, 1, kTorchSoftmaxBytes));
  out.push_back(elementwise_kernel("attn_softmax.fwd", scores, 1, 1, kSoftmaxFlopsPerElement - 2, kTorchSoftmaxBytes));
  if (casts) out.push_back(elementwise_kernel("attn_softmax_cast_back.fwd", scores, 1, narrow, 0, kTorchSoftmaxBytes));
  return out;
}

// Its backward, with attention dropout's: the fused kernel takes the probabilities and their gradient
// (and the dropout mask) and writes the scores' gradient; PyTorch's ops run the chain above in reverse,
// dropout's backward first (reads the gradient and the mask, writes one).
std::vector<Kernel> softmax_backward(const UnfusedAttention& a, double scores) {
  if (a.fused_softmax) {
    const double reads = 2 + (a.dropout ? mask_fraction(a) : 0);
    const char* name = a.dropout ? "attn_softmax_dropout.dgrad" : "attn_softmax.dgrad";
    return {elementwise_kernel(name, scores, reads, 1, kSoftmaxFlopsPerElement, a.element_bytes)};
  }
  const bool casts = a.element_bytes < kTorchSoftmaxBytes;
  const double narrow = a.element_bytes / kTorchSoftmaxBytes;
  std::vector<Kernel> out;
  if (a.dropout)
    out.push_back(elementwise_kernel("attn_dropout.dgrad", scores, 1 + mask_fraction(a), 1, 1, a.element_bytes));
  if (casts) out.push_back(elementwise_kernel("attn_softmax_cast_back.dgrad", scores, narrow, 1, 0, kTorchSoftmaxBytes));
  out.push_back(elementwise_kernel("attn_softmax.dgrad", scores, 2, 1, kSoftmaxFlopsPerElement - 2, kTorchSoftmaxBytes));
  out.push_back(elementwise_kernel("attn_softmax_mask.dgrad", scores, 1, 1, 1, kTorchSoftmaxBytes));
  out.push_back(elementwise_kernel("attn_softmax_scale.dgrad", scores, 1, 1, 1, kTorchSoftmaxBytes));
  if (casts) out.push_back(elementwise_kernel("attn_softmax_cast.dgrad", scores, 1, narrow, 0, kTorchSoftmaxBytes));
  return out;
}

}  // namespace

std::vector<Kernel> unfused_attention_forward(const UnfusedAttention& a) {
  const auto s = static_cast<int64_t>(a.s), ctx = static_cast<int64_t>(a.ctx), d = static_cast<int64_t>(a.d);
  const auto batch = static_cast<int64_t>(a.b * a.heads);
  const double scores = a.b * a.heads * a.s * a.ctx;
  std::vector<Kernel> out = {gemm_kernel("attn_scores.fwd", {s, ctx, d, batch}, a.p)};
  append(out, softmax_forward(a, scores));
  if (a.dropout)
    out.push_back(elementwise_kernel("attn_dropout.fwd", scores, 1, 1 + mask_fraction(a), 1, a.element_bytes));
  out.push_back(gemm_kernel("attn_context.fwd", {s, d, ctx, batch}, a.p));
  return out;
}

std::vector<Kernel> unfused_attention_backward(const UnfusedAttention& a) {
  const auto s = static_cast<int64_t>(a.s), ctx = static_cast<int64_t>(a.ctx), d = static_cast<int64_t>(a.d);
  const auto batch = static_cast<int64_t>(a.b * a.heads);
  const double scores = a.b * a.heads * a.s * a.ctx;
  std::vector<Kernel> out = {gemm_kernel("attn_context.dgrad_probs", {s, ctx, d, batch}, a.p),
                             gemm_kernel("attn_context.dgrad_v", {ctx, d, s, batch}, a.p)};
  append(out, softmax_backward(a, scores));
  append(out, {gemm_kernel("attn_scores.dgrad_q", {s, d, ctx, batch}, a.p),
               gemm_kernel("attn_scores.dgrad_k", {ctx, d, s, batch}, a.p)});
  return out;
}

}  // namespace trainsim
