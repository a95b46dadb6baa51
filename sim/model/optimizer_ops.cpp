#include "sim/model/optimizer_ops.hpp"

#include "sim/model/fp8_quantize.hpp"
#include "sim/model/kernel_builders.hpp"

namespace trainsim {

Kernel grad_norm_kernel(double params) {
  Kernel norm;
  norm.name = "optimizer.grad_norm";
  norm.cls = KernelClass::kElementwise;
  norm.flops = 2 * params;
  norm.bytes = kGradNormBytesPerParam * params;
  return norm;
}

std::vector<Kernel> optimizer_step(double params_on_device, double zero_sharded_fraction) {
  const double params = params_on_device * zero_sharded_fraction;
  const Kernel norm = grad_norm_kernel(params);
  Kernel adam;
  adam.name = "optimizer.adam";
  adam.cls = KernelClass::kOptimizer;
  adam.flops = kAdamFlopsPerParam * params;
  adam.bytes = (kAdamReadBytesPerParam + kAdamWriteBytesPerParam) * params;
  return {norm, adam};
}

double zero_shard_fraction(const ParamCount& device, const StrategySpec& s) {
  if (s.zero_stage < 1) return 1.0;
  const double total = static_cast<double>(device.total());
  const double replicas = s.dp * s.cp;  // the data-parallel group with context parallelism
  if (s.ep <= 1 || total <= 0) return 1.0 / replicas;
  const double expert = static_cast<double>(device.expert());
  // The experts' state is sharded over the expert data-parallel group.
  return ((total - expert) / replicas + expert / s.expert_dp()) / total;
}

std::vector<Kernel> iteration_step(const ParamCount& device, double zero_sharded_fraction, const Shard& sh,
                                   bool fp8_param_gather) {
  std::vector<Kernel> out = optimizer_step(static_cast<double>(device.total()), zero_sharded_fraction);
  append(out, weight_quantize_kernels(static_cast<double>(device.linear()), sh, fp8_param_gather));
  return out;
}

}  // namespace trainsim
