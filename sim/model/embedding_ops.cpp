#include "sim/model/embedding_ops.hpp"

#include "sim/model/kernel_builders.hpp"

namespace trainsim {
namespace {
constexpr double kTokenIdBytes = 8;           // int64 token ids
constexpr double kLogitFp32Bytes = 4;         // the cross entropy works on fp32 logits
constexpr double kCrossEntropyFlopsPerElement = 5;  // max, subtract, exp, sum, log-term
// Megatron-LM's vocab-parallel cross entropy (megatron/core/tensor_parallel/cross_entropy.py) is
// a chain of separate PyTorch ops over the local logits, each a full pass through HBM:
// forward: .float() (reads the 16-bit logits, writes fp32), max (reads), subtract the max in
// place (reads, writes), exp in place (reads, writes), sum (reads), divide by the sum in place
// (reads, writes; the softmax is kept for the backward) -> 5 fp32 reads, 4 fp32 writes.
constexpr double kCrossEntropyFwdFp32Reads = 5;
constexpr double kCrossEntropyFwdFp32Writes = 4;
// backward: grad = softmax, minus one at the target (negligible), scaled by the incoming
// gradient in place (reads, writes), then .float()'s backward casts it to 16 bit (reads fp32,
// writes 16-bit) -> 2 fp32 reads, 1 fp32 write, 1 16-bit write.
constexpr double kCrossEntropyBwdFp32Reads = 2;
constexpr double kCrossEntropyBwdFp32Writes = 1;
// Transformer Engine's fused cross entropy (RunSpec::cross_entropy kTe): an online-softmax kernel reads
// the 16-bit logits once (max and sum per row), a second reads them again and writes the gradient in
// their place: two reads and one write of the 16-bit logits, in two launches.
constexpr double kFusedCrossEntropyReads = 2;
constexpr double kFusedCrossEntropyWrites = 1;
constexpr int kFusedCrossEntropyForwardLaunches = 2;
// The loss's kernels over `logits` local logits of `ab` bytes (16-bit), forward and backward.
Kernel cross_entropy_forward(double logits, double ab, bool fused) {
  if (fused) {
    Kernel ce = elementwise_kernel("cross_entropy.fwd", logits, kFusedCrossEntropyReads, kFusedCrossEntropyWrites,
                                   kCrossEntropyFlopsPerElement, ab);
    ce.launches = kFusedCrossEntropyForwardLaunches;
    return ce;
  }
  Kernel ce = elementwise_kernel("cross_entropy.fwd", logits, kCrossEntropyFwdFp32Reads, kCrossEntropyFwdFp32Writes,
                                 kCrossEntropyFlopsPerElement, kLogitFp32Bytes);
  ce.bytes += logits * ab;  // reads the 16-bit logits the GEMM wrote
  return ce;
}
Kernel cross_entropy_backward(double logits, double ab, bool fused) {
  // Fused: the gradient the forward wrote in place is scaled by the incoming one, in place.
  if (fused) return elementwise_kernel("cross_entropy.dgrad", logits, 1, 1, 1, ab);
  // From the kept fp32 softmax to the 16-bit logit gradient (softmax - one_hot, scaled).
  Kernel ce = elementwise_kernel("cross_entropy.dgrad", logits, kCrossEntropyBwdFp32Reads, kCrossEntropyBwdFp32Writes,
                                 1, kLogitFp32Bytes);
  ce.bytes += logits * ab;  // writes the 16-bit logit gradient
  return ce;
}
// A learned absolute position table: the forward reads the rows of the positions and adds them
// to the token embedding (reads both, writes the sum); the backward reads the gradient and
// accumulates it into the table's rows (reads and writes them).
constexpr double kLearnedPositionPasses = 3;

double learned_position_bytes(const ModelSpec& m, double tokens, double element_bytes) {
  if (m.position_embedding != PositionEmbedding::kLearned) return 0;
  return kLearnedPositionPasses * tokens * m.hidden * element_bytes;
}
}  // namespace

int64_t local_vocab(const ModelSpec& m, const Shard& sh) { return ceil_div(m.vocab, sh.tp); }

std::vector<Kernel> embedding_forward(const ModelSpec& m, const Shard& sh) {
  const double ab = activation_element_bytes(sh.precision);
  const double tokens = static_cast<double>(gemm_tokens(sh));
  Kernel k;
  k.name = "embedding.fwd";
  k.cls = KernelClass::kEmbedding;
  k.bytes = tokens * kTokenIdBytes + tokens * m.hidden * ab / sh.tp + tokens * m.hidden * ab +
            learned_position_bytes(m, tokens, ab);
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
  k.bytes = tokens * kTokenIdBytes + tokens * m.hidden * ab + 2 * tokens * m.hidden * ab / sh.tp +
            learned_position_bytes(m, tokens, ab);
  return {k};
}

std::vector<Kernel> output_forward(const ModelSpec& m, const Shard& sh) {
  const Precision logits_p = activation_precision(sh.precision);  // Megatron output layer: not a TE module
  const double ab = activation_element_bytes(sh.precision);
  const int64_t tokens = gemm_tokens(sh);
  const int64_t v = local_vocab(m, sh);
  const double logits = static_cast<double>(tokens) * static_cast<double>(v);
  return {
      norm_forward_kernel("final_norm.fwd", m.norm, static_cast<double>(sequence_tokens(sh)) * m.hidden, ab),
      gemm_kernel("logits.fwd", {tokens, v, m.hidden, 1}, logits_p),
      cross_entropy_forward(logits, ab, sh.fused_cross_entropy),
  };
}

std::vector<Kernel> output_backward(const ModelSpec& m, const Shard& sh) {
  const Precision logits_p = activation_precision(sh.precision);  // Megatron output layer: not a TE module
  const double ab = activation_element_bytes(sh.precision);
  const int64_t tokens = gemm_tokens(sh);
  const int64_t v = local_vocab(m, sh);
  const double logits = static_cast<double>(tokens) * static_cast<double>(v);
  return {
      cross_entropy_backward(logits, ab, sh.fused_cross_entropy),
      gemm_kernel("logits.dgrad", {tokens, m.hidden, v, 1}, logits_p),
      gemm_kernel("logits.wgrad", {m.hidden, v, tokens, 1}, logits_p, true),
      norm_backward_kernel("final_norm.dgrad", m.norm, static_cast<double>(sequence_tokens(sh)) * m.hidden, ab),
  };
}

}  // namespace trainsim
