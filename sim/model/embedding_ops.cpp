#include "sim/model/embedding_ops.hpp"

#include "sim/model/kernel_builders.hpp"

namespace trainsim {
namespace {
constexpr double kTokenIdBytes = 8;           // int64 token ids
constexpr double kLogitFp32Bytes = 4;         // the cross entropy works on fp32 logits
constexpr double kCrossEntropyFlopsPerElement = 5;  // max, subtract, exp, sum, log-term
}  // namespace

int64_t local_vocab(const ModelSpec& m, const Shard& sh) { return ceil_div(m.vocab, sh.tp); }

std::vector<Kernel> embedding_forward(const ModelSpec& m, const Shard& sh) {
  const double ab = activation_element_bytes(sh.precision);
  const double tokens = static_cast<double>(gemm_tokens(sh));
  Kernel k;
  k.name = "embedding.fwd";
  k.cls = KernelClass::kEmbedding;
  k.bytes = tokens * kTokenIdBytes + tokens * m.hidden * ab / sh.tp + tokens * m.hidden * ab;
  return {k};
}

std::vector<Kernel> embedding_backward(const ModelSpec& m, const Shard& sh) {
  const double ab = activation_element_bytes(sh.precision);
  const double tokens = static_cast<double>(gemm_tokens(sh));
  Kernel k;
  k.name = "embedding.wgrad";
  k.cls = KernelClass::kEmbedding;
  k.weight_grad = true;
  k.flops = tokens * m.hidden / sh.tp;  // one add per accumulated element
  k.bytes = tokens * kTokenIdBytes + tokens * m.hidden * ab + 2 * tokens * m.hidden * ab / sh.tp;
  return {k};
}

std::vector<Kernel> output_forward(const ModelSpec& m, const Shard& sh) {
  const double gb = gemm_element_bytes(sh.precision);
  const double ab = activation_element_bytes(sh.precision);
  const int64_t tokens = gemm_tokens(sh);
  const int64_t v = local_vocab(m, sh);
  const double logits = static_cast<double>(tokens) * static_cast<double>(v);
  Kernel ce = elementwise_kernel("cross_entropy.fwd", logits, 0, 1, kCrossEntropyFlopsPerElement,
                                 kLogitFp32Bytes);
  ce.bytes += logits * ab;  // reads the 16-bit logits the GEMM wrote
  return {
      norm_forward_kernel("final_norm.fwd", m.norm, static_cast<double>(sequence_tokens(sh)) * m.hidden, ab),
      gemm_kernel("logits.fwd", {tokens, v, m.hidden, 1}, gb),
      ce,
  };
}

std::vector<Kernel> output_backward(const ModelSpec& m, const Shard& sh) {
  const double gb = gemm_element_bytes(sh.precision);
  const double ab = activation_element_bytes(sh.precision);
  const int64_t tokens = gemm_tokens(sh);
  const int64_t v = local_vocab(m, sh);
  const double logits = static_cast<double>(tokens) * static_cast<double>(v);
  // Reads the fp32 softmax, writes the 16-bit logit gradient (softmax - one_hot).
  Kernel ce = elementwise_kernel("cross_entropy.dgrad", logits, 1, 0, 1, kLogitFp32Bytes);
  ce.bytes += logits * ab;
  return {
      ce,
      gemm_kernel("logits.dgrad", {tokens, m.hidden, v, 1}, gb),
      gemm_kernel("logits.wgrad", {m.hidden, v, tokens, 1}, gb, true),
      norm_backward_kernel("final_norm.dgrad", m.norm, static_cast<double>(sequence_tokens(sh)) * m.hidden, ab),
  };
}

}  // namespace trainsim
