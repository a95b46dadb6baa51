// Unfused attention (Megatron-LM before FlashAttention, Korthikanti et al. 2022 §4.1), per device: the
// scores QK^T and the context PV are batched GEMMs over the micro-batch's heads, and the s×context
// scores go through HBM, scaled, masked and normalised (Megatron's fused scale-mask-softmax kernel, or
// PyTorch's fp32 ops where the framework's rule does not take the shape: softmax_fusion.hpp) and, with
// attention dropout, dropped out. No causal skipping: the masked half is computed and then masked.
#pragma once
#include <vector>

#include "sim/config/precision.hpp"
#include "sim/model/kernel.hpp"

namespace trainsim {

struct UnfusedAttention {
  double b = 1;              // sequences of the micro-batch
  double heads = 1;          // query heads on this device
  double s = 0;              // query rows per sequence on this device
  double ctx = 0;            // keys every query scores
  double d = 0;              // head dimension
  Precision p = Precision::kBf16;  // the batched GEMMs' precision (the run's activation precision)
  double element_bytes = 2;  // bytes per score, probability and their gradients
  bool dropout = false;      // attention dropout on the probabilities
  bool fused_softmax = true; // the scores take Megatron's fused scale-mask-softmax kernel
};

// Kernels in execution order: attn_scores, the softmax (attn_softmax*), [attn_dropout], attn_context.
[[nodiscard]] std::vector<Kernel> unfused_attention_forward(const UnfusedAttention& a);
// Gradients of the two batched GEMMs w.r.t. both operands (no weights) around the softmax's and
// dropout's backward.
[[nodiscard]] std::vector<Kernel> unfused_attention_backward(const UnfusedAttention& a);

}  // namespace trainsim
