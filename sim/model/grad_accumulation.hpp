// Where a linear layer's weight gradient is accumulated across micro-batches.
//
// Megatron-LM keeps one main-gradient buffer per parameter (fp32 in bf16 runs). With gradient
// accumulation fusion (its default where APEX / Transformer Engine provide the fused kernel) the
// weight-gradient GEMM adds into that buffer in its epilogue, at no extra HBM pass. Without it
// (--no-gradient-accumulation-fusion, which Ascend's MindSpeed-LLM example scripts pass) the GEMM
// writes a fresh gradient in the run's precision and the data-parallel wrapper's hook adds it to
// the buffer (main_grad.add_(grad)): one memory-bound kernel per weight per micro-batch.
#pragma once
#include <vector>

#include "sim/model/kernel.hpp"

namespace trainsim {

// The kernel that adds one weight-gradient GEMM's output into the main-gradient buffer, named
// "<gemm>.accumulate": over the m·n·batch weight elements it reads the gradient (`grad_bytes`
// each) and the main gradient, and writes the main gradient (`main_grad_bytes` each), one add
// per element. It belongs to the weight-gradient work (weight_grad = true).
[[nodiscard]] Kernel grad_accumulation_kernel(const Kernel& weight_grad_gemm, double grad_bytes,
                                              double main_grad_bytes);

// `backward` with an accumulation kernel after every weight-gradient GEMM (the unfused case).
[[nodiscard]] std::vector<Kernel> with_unfused_grad_accumulation(const std::vector<Kernel>& backward,
                                                                 double grad_bytes, double main_grad_bytes);

}  // namespace trainsim
