#include "sim/analytic/optimizer_time.hpp"

#include "sim/analytic/compute_time.hpp"
#include "sim/model/fp8_quantize.hpp"
#include "sim/model/optimizer_ops.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {
namespace {

constexpr double kOffloadedGradientBytes = 2;  // 16-bit gradients to the host, per parameter
constexpr double kOffloadedWeightBytes = 2;    // 16-bit weights back to the device, per parameter

void add(StepCost& cost, const Kernel& k, const AcceleratorSpec& acc) {
  cost.seconds += kernel_time(k, acc);
  cost.flops += k.flops;
  cost.bytes += k.bytes;
}

}  // namespace

OffloadedStep offloaded_step(double shard_params, const PlatformSpec& platform) {
  const double link = platform.host_link_bandwidth * platform.host_efficiency;
  const double memory = platform.host_memory_bandwidth * platform.host_efficiency;
  OffloadedStep step;
  step.gradients_to_host = kOffloadedGradientBytes * shard_params / link;
  step.host_adam = (kAdamReadBytesPerParam + kAdamWriteBytesPerParam + kGradNormBytesPerParam) * shard_params / memory;
  step.weights_to_device = kOffloadedWeightBytes * shard_params / link;
  return step;
}

StepCost optimizer_step_cost(const RunSpec& run, const ParamCount& device, double shard) {
  const AcceleratorSpec& acc = run.platform.accelerator;
  const double linear = static_cast<double>(device.linear());
  StepCost cost;
  if (run.strategy.offload == Offload::kOptimizer) {
    cost.seconds = offloaded_step(static_cast<double>(device.total()) * shard, run.platform).total();
    for (const Kernel& k : weight_quantize_kernels(linear, shard_of(run), run.fp8.param_gather)) add(cost, k, acc);
    return cost;
  }
  for (const Kernel& k : iteration_step(device, shard, shard_of(run), run.fp8.param_gather)) add(cost, k, acc);
  return cost;
}

}  // namespace trainsim
