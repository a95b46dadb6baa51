#include "sim/model/optimizer_ops.hpp"

namespace trainsim {

std::vector<Kernel> optimizer_step(double params_on_device, double zero_sharded_fraction) {
  const double params = params_on_device * zero_sharded_fraction;
  Kernel norm;
  norm.name = "optimizer.grad_norm";
  norm.cls = KernelClass::kElementwise;
  norm.flops = 2 * params;
  norm.bytes = kGradNormBytesPerParam * params;
  Kernel adam;
  adam.name = "optimizer.adam";
  adam.cls = KernelClass::kOptimizer;
  adam.flops = kAdamFlopsPerParam * params;
  adam.bytes = (kAdamReadBytesPerParam + kAdamWriteBytesPerParam) * params;
  return {norm, adam};
}

}  // namespace trainsim
