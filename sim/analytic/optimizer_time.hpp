// The optimizer step's time on one device, once per iteration after its last backward: the graph's
// `optimizer.step` task and the formulas' optimizer term (one function, so the two agree).
//
// On the device (strategy.offload none): the kernels of iteration_step (sim/model/optimizer_ops.hpp)
// at their roofline time.
//
// Offloaded (strategy.offload optimizer), as ZeRO-Offload runs it (Ren et al., "ZeRO-Offload:
// Democratizing Billion-Scale Model Training", USENIX ATC 2021, section 4: the fp32 master weights
// and Adam moments of the device's shard live in host memory; per step the shard's 16-bit gradients
// go to the host, the CPU runs Adam, and the updated 16-bit weights come back: 2 + 2 bytes per
// parameter over PCIe, "4M" in the paper). The CPU step is bound by host memory bandwidth: it moves
// the same bytes per parameter as the device's fused Adam and gradient-norm pass
// (kAdamReadBytesPerParam + kAdamWriteBytesPerParam + kGradNormBytesPerParam = 34). The three
// parts run one after the other after the backward, the device idle (not modelled: DeepSpeed's
// overlap_comm, which copies gradients during the backward, and the one-step delayed update, which
// runs the CPU step beside the next forward; both would hide some of it). FP8 weight
// re-quantization (iteration_step's other kernels) stays on the device.
#pragma once
#include "sim/config/run_spec.hpp"
#include "sim/core/units.hpp"
#include "sim/model/params.hpp"

namespace trainsim {

// The offloaded step's parts, in seconds, for `shard_params` parameters on a platform's host side.
struct OffloadedStep {
  Seconds gradients_to_host = 0;  // 2 bytes per parameter over host_link_bandwidth
  Seconds host_adam = 0;          // 34 bytes per parameter over host_memory_bandwidth
  Seconds weights_to_device = 0;  // 2 bytes per parameter over host_link_bandwidth
  [[nodiscard]] Seconds total() const { return gradients_to_host + host_adam + weights_to_device; }
};

// Requires host_link_bandwidth and host_memory_bandwidth > 0 (platform_fit refuses runs without them).
[[nodiscard]] OffloadedStep offloaded_step(double shard_params, const PlatformSpec& platform);

// What the device's compute stream spends on the step: its seconds, and the FLOP and HBM bytes of
// the kernels that run on the device.
struct StepCost {
  Seconds seconds = 0;
  Flops flops = 0;
  Bytes bytes = 0;
};

// The step of a device holding `device` parameters, `shard` of them in its optimizer shard
// (zero_shard_fraction).
[[nodiscard]] StepCost optimizer_step_cost(const RunSpec& run, const ParamCount& device, double shard);

}  // namespace trainsim
