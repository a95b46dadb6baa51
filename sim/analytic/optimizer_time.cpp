#include "sim/analytic/optimizer_time.hpp"

#include "sim/analytic/compute_time.hpp"
#include "sim/model/fp8_quantize.hpp"
#include "sim/model/optimizer_ops.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {
namespace {

// Bytes per parameter of the offloaded step (optimizer_time.hpp says where each comes from).
constexpr double kGradientToHostBytes = 4;     // fp32 gradient at the accumulation boundary
constexpr double kAccumulationCopyBytes = 2;   // 16-bit gradient, each way, per micro-step
constexpr double kHostStepBytes = 8 + 28 + 6 + 4 + 2;  // unscale, Adam, 16-bit copy, DMA in, DMA out
constexpr double kWeightToDeviceBytes = 2;     // 16-bit weight

void add(StepCost& cost, const Kernel& k, const AcceleratorSpec& acc) {
  cost.device += kernel_time(k, acc);
  cost.flops += k.flops;
  cost.bytes += k.bytes;
}

}  // namespace

OffloadedStep offloaded_step(double shard_params, double microbatches, const PlatformSpec& platform) {
  const double link = platform.host_link_bandwidth * platform.host_efficiency;
  const double memory = platform.host_memory_bandwidth * platform.host_efficiency;
  // microbatches sends to the host and microbatches - 1 fetches back, with accumulation only.
  const double copies = microbatches > 1 ? 2 * microbatches - 1 : 0;
  OffloadedStep step;
  step.accumulation = copies * kAccumulationCopyBytes * shard_params / link;
  step.gradients_to_host = kGradientToHostBytes * shard_params / link;
  step.host_adam = kHostStepBytes * shard_params / memory;
  step.weights_to_device = kWeightToDeviceBytes * shard_params / link;
  return step;
}

StepCost optimizer_step_cost(const RunSpec& run, const ParamCount& device, double shard) {
  const AcceleratorSpec& acc = run.platform.accelerator;
  StepCost cost;
  const double params = static_cast<double>(device.total());
  if (run.strategy.offload != Offload::kOptimizer) {
    for (const Kernel& k : iteration_step(device, shard, shard_of(run), run.fp8.param_gather)) add(cost, k, acc);
    return cost;
  }
  add(cost, grad_norm_kernel(params * shard), acc);  // the gradient norm stays on the device
  const double linear = static_cast<double>(device.linear());
  for (const Kernel& k : weight_quantize_kernels(linear, shard_of(run), run.fp8.param_gather)) add(cost, k, acc);
  cost.host = offloaded_step(params * shard, static_cast<double>(run.microbatches()), run.platform).total();
  return cost;
}

}  // namespace trainsim
