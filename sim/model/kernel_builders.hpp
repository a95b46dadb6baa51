// Small constructors for catalogue kernels, so every block counts FLOPs and bytes the same way.
#pragma once
#include <string>
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/model/kernel.hpp"

namespace trainsim {

// A GEMM C[m×n] = A[m×k]·B[k×n], `batch` times, whose math runs in `precision`: 2·m·n·k·batch FLOP
// (one multiply-add = 2 FLOP); bytes = each operand read once at the precision's width and C written
// once at the width of activations around it (an FP8 GEMM writes bf16), all times batch.
[[nodiscard]] Kernel gemm_kernel(std::string name, const GemmShape& shape, Precision precision,
                                 bool weight_grad = false);

// A memory-bound kernel over `elements` output elements that reads `tensors_read` and writes
// `tensors_written` tensors of that many elements: bytes = elements·(read + written)·element_bytes,
// FLOP = elements·flops_per_element.
[[nodiscard]] Kernel elementwise_kernel(std::string name, double elements, double tensors_read,
                                        double tensors_written, double flops_per_element,
                                        double element_bytes);

// Forward of a LayerNorm/RMSNorm over `elements`: reads x, writes y.
// FLOP per element (approximate, memory-bound anyway): LayerNorm 8 (mean, variance, normalise,
// scale, shift), RMSNorm 5 (square-sum, normalise, scale).
[[nodiscard]] Kernel norm_forward_kernel(std::string name, NormKind norm, double elements,
                                         double element_bytes);
// Backward of a LayerNorm/RMSNorm: reads x and dy, writes dx (the norm's own gain/bias gradients are a
// token reduction folded in); twice the forward's FLOP per element.
[[nodiscard]] Kernel norm_backward_kernel(std::string name, NormKind norm, double elements,
                                          double element_bytes);
// The gradient of a block's input, which both the block's norm and its residual path read: PyTorch's
// autograd sums the two gradients in a kernel of its own when the second arrives (InputBuffer::add in
// torch/csrc/autograd/input_buffer.cpp), after the norm's backward: reads both, writes the sum.
[[nodiscard]] Kernel residual_backward_kernel(std::string name, double elements, double element_bytes);

// The residual add closing a block over `elements`: reads the block output and the residual,
// writes their sum (1 FLOP per element); with hidden dropout (Megatron's fused bias-dropout-add)
// it also writes the 1-byte dropout mask.
[[nodiscard]] Kernel residual_forward_kernel(std::string name, double elements, bool hidden_dropout,
                                             double element_bytes);
// Backward of hidden dropout: reads the gradient and the 1-byte mask, writes the scaled gradient.
[[nodiscard]] Kernel dropout_backward_kernel(std::string name, double elements, double element_bytes);

// Sums over a kernel list: all FLOP, the FLOP of one class, all bytes.
[[nodiscard]] Flops total_flops(const std::vector<Kernel>& kernels);
[[nodiscard]] Flops total_flops(const std::vector<Kernel>& kernels, KernelClass cls);
[[nodiscard]] Bytes total_bytes(const std::vector<Kernel>& kernels);

// Appends `more` to `out`.
void append(std::vector<Kernel>& out, const std::vector<Kernel>& more);

}  // namespace trainsim
