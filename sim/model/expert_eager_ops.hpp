// Eager operations a framework runs around the experts' grouped GEMMs (FrameworkMoe), as catalogue
// kernels: memory-bound, one launch per eager operation, every one issued by the framework itself
// (Kernel::framework_calls), so that each pays the host's per-launch cost.
//
// Megatron-Core's TEGroupedMLP (megatron/core/transformer/moe/experts.py) with
// fused_bias_geglu.weighted_bias_quick_geglu_impl, as Megatron-Bridge's GPT-OSS provider configures
// them (add_bias_linear, bias_activation_fusion, activation_func_clamp_value 7), Megatron-Core 0.15:
//  * glu clamp: before the fused activation, the fc1 output's gate half clamped (<= c), its linear
//    half clamped ([-c, c]) and the two concatenated again; the activation then makes a device scalar
//    from the host, a synchronisation the graph and the formulas place after this kernel;
//  * expert bias: after the fc2 grouped GEMM (skip_bias_add), per local expert its rows plus its
//    bias times each row's routing probability, then the experts concatenated.
// Routing probabilities are in the activations' precision (the router runs in the input's dtype
// unless moe_router_dtype is set; Megatron-Bridge's GPT-OSS provider leaves it unset).
// Measured on an H100 (validation/kernels/h100-sxm-expert-epilogue.yaml).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/model/kernel.hpp"

namespace trainsim {

// The clamps' forward kernel, after which the forward synchronises with the host.
inline constexpr const char* kGluClampForward = "moe_expert_clamp.fwd";

// The clamps and concatenation over `elements` elements of one half of the fc1 output (rows ×
// expert width), `element_bytes` each; the forward, or the backward (the clamps' masked gradients and
// the concatenation of the two halves' gradients).
[[nodiscard]] Kernel glu_clamp_kernel(double elements, double element_bytes, bool backward);

// The per-expert bias over `elements` = rows × hidden elements of the fc2 output, split over
// `experts` local experts; the forward, or the backward (per expert the gradients of the bias and
// of the probabilities, each a product and a reduction, then the rows' gradients concatenated).
[[nodiscard]] Kernel expert_bias_kernel(double elements, int64_t experts, double element_bytes, bool backward);

}  // namespace trainsim
