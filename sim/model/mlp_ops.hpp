// Dense feed-forward block of one transformer layer, per device: norm, fc1 (column-parallel;
// gate and up projections fused into one GEMM of width 2·ffn/t when gated), activation
// (GeLU, or SwiGLU = silu(gate)·up), fc2 (row-parallel), residual add.
#pragma once
#include <string>
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/model/kernel.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

// Names: mlp_norm, mlp_fc1, mlp_act, mlp_fc2, mlp_residual (".fwd"; ".dgrad"/".wgrad").
[[nodiscard]] std::vector<Kernel> mlp_forward(const ModelSpec& m, const Shard& sh);
[[nodiscard]] std::vector<Kernel> mlp_backward(const ModelSpec& m, const Shard& sh);

// The FFN GEMMs and activation of a `width`-wide FFN (dense MLP, one shared expert group) over
// `tokens` rows, with names prefixed by `prefix` ("mlp", "moe_shared"). `width` is already the
// per-device width (divided by tp). Shared by mlp_ops and moe_ops. In 8-bit runs they include the
// quantization kernels (sim/model/fp8_quantize.hpp) of fc2's input and of both output gradients;
// fc1's input is quantized by the norm before it (dense MLP, TE LayerNormMLP: `input_from_norm`,
// transposed in the backward) or by its own cast+transpose (shared experts, TE Linear).
[[nodiscard]] std::vector<Kernel> ffn_forward_kernels(const std::string& prefix, const ModelSpec& m,
                                                      const Shard& sh, int64_t tokens, int64_t width,
                                                      bool input_from_norm);
[[nodiscard]] std::vector<Kernel> ffn_backward_kernels(const std::string& prefix, const ModelSpec& m,
                                                       const Shard& sh, int64_t tokens, int64_t width,
                                                       bool input_from_norm);

}  // namespace trainsim
