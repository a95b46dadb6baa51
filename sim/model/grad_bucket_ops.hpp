// The kernels Megatron-Core's DDP runs over one gradient bucket of `params` main gradients of
// `element` bytes each before reducing it (strategy.grad_nan_check, strategy.grad_scale_kernel;
// placed by sim/graph/grad_checks.hpp, timed by the formulas in sim/analytic/dp_inputs.cpp).
#pragma once
#include "sim/model/kernel_builders.hpp"

namespace trainsim {

// grad_data.norm(p=2): reads the bucket once (a square and an add per element).
[[nodiscard]] inline Kernel grad_norm_kernel(double params, double element) {
  return elementwise_kernel("dp.grad_norm", params, 1, 0, 2, element);
}
// grad_data *= gradient_scaling_factor: reads and writes the bucket.
[[nodiscard]] inline Kernel grad_scale_kernel(double params, double element) {
  return elementwise_kernel("dp.grad_scale", params, 1, 1, 1, element);
}

}  // namespace trainsim
