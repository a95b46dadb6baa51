#include "sim/model/router_ops.hpp"

#include <string>
#include <utility>

#include "sim/model/kernel_builders.hpp"

namespace trainsim {
namespace {

constexpr double kTopkFlopsPerElement = 5;  // softmax (max, exp, sum, divide) + top-k compare
constexpr double kFp32Bytes = 4;            // logits, routing scores and their gradients are fp32

// The router's sizes on one device.
struct RouterSizes {
  int64_t tokens;     // tokens this device routes (the sequence-parallel share)
  double scores;      // tokens x experts
  double inputs;      // tokens x h
  double weight;      // h x experts
  double ab;          // bytes per activation element
};

RouterSizes router_sizes(const ModelSpec& m, const Shard& sh) {
  RouterSizes z;
  z.tokens = sequence_tokens(sh);
  z.scores = static_cast<double>(z.tokens) * m.moe.experts;
  z.inputs = static_cast<double>(z.tokens) * m.hidden;
  z.weight = static_cast<double>(m.hidden) * m.moe.experts;
  z.ab = activation_element_bytes(sh.precision);
  return z;
}

// A cast of `elements` elements from `from` to `to` bytes each: one read, one write.
Kernel cast_kernel(std::string name, double elements, double from, double to) {
  Kernel k = elementwise_kernel(std::move(name), elements, 1, 0, 0, from);
  k.bytes += elements * to;
  return k;
}

// A kernel over one fp32 scalar (the auxiliary loss's bookkeeping): its launch is the cost.
Kernel scalar_kernel(std::string name) { return elementwise_kernel(std::move(name), 1, 1, 1, 1, kFp32Bytes); }

// The router's backward GEMMs. With fp32 logits, as Megatron-Core's RouterGatingLinearFunction runs
// them with Transformer Engine (moe_utils.py): the weight cast to fp32 and the input gradient's GEMM on
// fp32 operands, cast back to the input's precision; the input cast to fp32 and the weight gradient's
// GEMM, cast back to the weight's precision. TE's cuBLASLt GEMM computes fp32 operands as TF32
// (CUBLAS_COMPUTE_32F_FAST_TF32, transformer_engine/common/gemm/cublaslt_gemm.cu), so both GEMMs are
// kTf32 (platforms without TF32 fall back to fp32). Measured on an H100 at the MoE rows' shapes:
// validation/kernels/h100-sxm-router-*.yaml. The forward's GEMM takes the 16-bit operands as they are
// and writes fp32 logits: no cast.
std::vector<Kernel> gemm_backward(const ModelSpec& m, const Shard& sh, const RouterSizes& z) {
  const Precision p = activation_precision(sh.precision);
  if (!sh.router_fp32)
    return {gemm_kernel("router.dgrad", {z.tokens, m.hidden, m.moe.experts, 1}, p),
            gemm_kernel("router.wgrad", {m.hidden, m.moe.experts, z.tokens, 1}, p, true)};
  Kernel input_cast = cast_kernel("router_input_cast.wgrad", z.inputs, z.ab, kFp32Bytes);
  Kernel weight_cast_back = cast_kernel("router_weight_cast.wgrad", z.weight, kFp32Bytes, z.ab);
  input_cast.weight_grad = weight_cast_back.weight_grad = true;  // work of the weight gradient alone
  return {
      cast_kernel("router_weight_cast.dgrad", z.weight, z.ab, kFp32Bytes),
      gemm_kernel("router.dgrad", {z.tokens, m.hidden, m.moe.experts, 1}, Precision::kTf32),
      cast_kernel("router_grad_cast.dgrad", z.inputs, kFp32Bytes, z.ab),
      input_cast,
      gemm_kernel("router.wgrad", {m.hidden, m.moe.experts, z.tokens, 1}, Precision::kTf32, true),
      weight_cast_back,
  };
}

}  // namespace

std::vector<Kernel> router_forward(const ModelSpec& m, const Shard& sh) {
  const RouterSizes z = router_sizes(m, sh);
  Kernel gemm = gemm_kernel("router.fwd", {z.tokens, m.moe.experts, m.hidden, 1}, activation_precision(sh.precision));
  if (sh.router_fp32) gemm.bytes += z.scores * (kFp32Bytes - z.ab);  // the logits written in fp32
  std::vector<Kernel> out{gemm};
  if (sh.router_force_balance) {
    out.push_back(elementwise_kernel("router_logits_clone.fwd", z.scores, 1, 1, 0, kFp32Bytes));
    out.push_back(elementwise_kernel("router_random_logits.fwd", z.scores, 0, 1, 2, kFp32Bytes));
  }
  out.push_back(elementwise_kernel("router_topk.fwd", z.scores, 1, 1, kTopkFlopsPerElement, kFp32Bytes));
  if (sh.router_aux_loss) {
    Kernel scores = elementwise_kernel("router_aux_scores.fwd", z.scores, 1, 1, kTopkFlopsPerElement, kFp32Bytes);
    scores.bytes += z.scores;  // and its 1-byte routing map
    out.push_back(scores);
    out.push_back(elementwise_kernel("router_tokens_per_expert.fwd", z.scores, 1, 0, 1, 1));  // the map summed
    out.push_back(elementwise_kernel("router_aux_loss.fwd", z.scores, 1, 0, 2, kFp32Bytes));
    out.push_back(scalar_kernel("router_aux_track.fwd"));
  }
  return out;
}

std::vector<Kernel> router_backward(const ModelSpec& m, const Shard& sh) {
  const RouterSizes z = router_sizes(m, sh);
  std::vector<Kernel> out;
  if (sh.router_aux_loss) {
    out.push_back(scalar_kernel("router_aux_scale.dgrad"));
    out.push_back(elementwise_kernel("router_aux_loss.dgrad", z.scores, 0, 1, 1, kFp32Bytes));
    out.push_back(elementwise_kernel("router_aux_scores.dgrad", z.scores, 2, 1, kTopkFlopsPerElement, kFp32Bytes));
  }
  out.push_back(elementwise_kernel("router_topk.dgrad", z.scores, 2, 1, kTopkFlopsPerElement, kFp32Bytes));
  if (sh.router_aux_loss) out.push_back(elementwise_kernel("router_logits_grad_add.dgrad", z.scores, 2, 1, 1, kFp32Bytes));
  append(out, gemm_backward(m, sh, z));
  return out;
}

}  // namespace trainsim
