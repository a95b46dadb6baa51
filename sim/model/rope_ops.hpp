// The rotary embedding's kernels on a layer's q and k: one fused elementwise kernel (Transformer
// Engine's fused RoPE, or any rotary the framework fuses), or, for a YaRN-scaled rotary that the
// framework applies by eager ops (FrameworkSpec::eager_yarn_rope), the ops Megatron-Core's
// rope_utils._apply_rotary_pos_emb_bshd runs on each of q and k:
//   forward: cos and sin of the fp32 frequencies (seq × head_dim), each times the YaRN scale and cast
//   (6 small ops), then t·cos, the negated second half, cat (rotate_half), ·sin, add, and a cat with
//   the empty part past the rotary dimension (6 ops over t): 12 launches per tensor;
//   backward (autograd): grad·sin, neg, cat, grad·cos, add, and the empty slice's fill and add:
//   7 launches per tensor.
// Every eager op is a framework call (Kernel::framework_calls). Measured on an H100 at GPT-OSS's
// shape: validation/kernels/h100-sxm-yarn-rope.yaml (24 kernels forward, 14 backward).
#pragma once
#include "sim/model/kernel.hpp"

namespace trainsim {

// The rotary kernel over `elements` activation elements of q and k together (`element_bytes` each);
// `eager`: the YaRN ops above, with `freq_elements` = seq × head_dim fp32 frequencies.
[[nodiscard]] Kernel rope_kernel(double elements, double element_bytes, bool eager, double freq_elements,
                                 bool backward);

}  // namespace trainsim
