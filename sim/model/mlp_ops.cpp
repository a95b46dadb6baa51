#include "sim/model/mlp_ops.hpp"

#include "sim/model/fp8_quantize.hpp"
#include "sim/model/kernel_builders.hpp"

namespace trainsim {
namespace {
// Approximate FLOP per output element (memory-bound either way): tanh-GeLU ≈ 8;
// SwiGLU silu(g)·u ≈ 6 (exp, add, divide, two multiplies). Backward ≈ twice the forward.
double activation_flops(const ModelSpec& m) { return m.gated_ffn ? 6 : 8; }
double activation_inputs(const ModelSpec& m) { return m.gated_ffn ? 2 : 1; }  // gate and up, or x
}  // namespace

std::vector<Kernel> ffn_forward_kernels(const std::string& prefix, const ModelSpec& m, const Shard& sh,
                                        int64_t tokens, int64_t width, bool input_from_norm) {
  const Precision gp = sh.precision;
  const double ab = activation_element_bytes(sh.precision);
  const int64_t fc1_width = static_cast<int64_t>(activation_inputs(m)) * width;
  const double act_elements = static_cast<double>(tokens) * static_cast<double>(width);
  std::vector<Kernel> out;
  if (!input_from_norm) out = quantize_kernels(prefix + "_fc1.input", static_cast<double>(tokens) * m.hidden, sh, true);
  append(out, {gemm_kernel(prefix + "_fc1.fwd", {tokens, fc1_width, m.hidden, 1}, gp),
               elementwise_kernel(prefix + "_act.fwd", act_elements, activation_inputs(m), 1, activation_flops(m), ab)});
  append(out, quantize_kernels(prefix + "_fc2.input", act_elements, sh, true));
  out.push_back(gemm_kernel(prefix + "_fc2.fwd", {tokens, m.hidden, width, 1}, gp));
  return out;
}

std::vector<Kernel> ffn_backward_kernels(const std::string& prefix, const ModelSpec& m, const Shard& sh,
                                         int64_t tokens, int64_t width, bool input_from_norm) {
  const Precision gp = sh.precision;
  const double ab = activation_element_bytes(sh.precision);
  const int64_t fc1_width = static_cast<int64_t>(activation_inputs(m)) * width;
  const double act_elements = static_cast<double>(tokens) * static_cast<double>(width);
  const double rows = static_cast<double>(tokens) * m.hidden;
  const bool gathered = sp_gathers(sh);
  // Activation backward reads its inputs and the output gradient, writes the input gradients.
  const double reads = activation_inputs(m) + 1;
  std::vector<Kernel> out = row_parallel_output_grad(prefix + "_fc2", rows / (gathered ? sh.tp : 1), rows, sh);
  out.push_back(gemm_kernel(prefix + "_fc2.dgrad", {tokens, width, m.hidden, 1}, gp));
  if (gathered) append(out, as_weight_grad(fp8_transpose_kernels(prefix + "_fc2.output_grad", rows, sh)));
  append(out, {gemm_kernel(prefix + "_fc2.wgrad", {width, m.hidden, tokens, 1}, gp, true),
               elementwise_kernel(prefix + "_act.dgrad", act_elements, reads, activation_inputs(m),
                                  2 * activation_flops(m), ab)});
  append(out, quantize_kernels(prefix + "_fc1.output_grad", static_cast<double>(tokens) * fc1_width, sh, true));
  out.push_back(gemm_kernel(prefix + "_fc1.dgrad", {tokens, m.hidden, fc1_width, 1}, gp));
  if (input_from_norm) append(out, as_weight_grad(norm_output_transpose(prefix + "_norm.output", rows, sh, gathered)));
  out.push_back(gemm_kernel(prefix + "_fc1.wgrad", {m.hidden, fc1_width, tokens, 1}, gp, true));
  return out;
}

std::vector<Kernel> mlp_forward(const ModelSpec& m, const Shard& sh) {
  const double ab = activation_element_bytes(sh.precision);
  const double seq_elements = static_cast<double>(sequence_tokens(sh)) * m.hidden;
  std::vector<Kernel> out = norm_into_fp8_gemm(norm_forward_kernel("mlp_norm.fwd", m.norm, seq_elements, ab),
                                               seq_elements, sh, sp_gathers(sh));
  append(out, ffn_forward_kernels("mlp", m, sh, gemm_tokens(sh), ceil_div(ffn_hidden_of(m), sh.tp), true));
  out.push_back(residual_forward_kernel("mlp_residual.fwd", seq_elements, sh.hidden_dropout > 0, ab));
  return out;
}

std::vector<Kernel> mlp_backward(const ModelSpec& m, const Shard& sh) {
  const double ab = activation_element_bytes(sh.precision);
  const double seq_elements = static_cast<double>(sequence_tokens(sh)) * m.hidden;
  std::vector<Kernel> out;
  if (sh.hidden_dropout > 0) out.push_back(dropout_backward_kernel("mlp_dropout.dgrad", seq_elements, ab));
  append(out, ffn_backward_kernels("mlp", m, sh, gemm_tokens(sh), ceil_div(ffn_hidden_of(m), sh.tp), true));
  out.push_back(norm_backward_kernel("mlp_norm.dgrad", m.norm, seq_elements, ab));
  out.push_back(residual_backward_kernel("mlp_residual.dgrad", seq_elements, ab));
  return out;
}

}  // namespace trainsim
