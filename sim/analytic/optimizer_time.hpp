// The optimizer step's time on one device, once per iteration after its last backward: the graph's
// `optimizer.step` task and the formulas' optimizer terms (one function, so the two agree).
//
// On the device (strategy.offload none): the kernels of iteration_step (sim/model/optimizer_ops.hpp)
// at their roofline time.
//
// Offloaded (strategy.offload optimizer), as DeepSpeed's ZeRO-Offload runs it (Ren et al.,
// "ZeRO-Offload: Democratizing Billion-Scale Model Training", USENIX ATC 2021, section 4: the fp32
// master weights and Adam moments of the device's shard live in host memory; the CPU runs Adam), with
// the bytes of deepspeedai/DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py (commit 7dee2e06):
//   - the gradient norm stays on the device (set_norm_for_param_grad_in_gpu): iteration_step's norm kernel;
//   - at the accumulation boundary each shard gradient is cast to fp32 on the device and copied to the
//     host (async_inplace_copy_grad_to_fp32_buffer_from_gpu): 4 bytes per parameter over the host link;
//   - with gradient accumulation (micro-batches > 1) every micro-step also sends its 16-bit gradient to a
//     host buffer, and every one after the first fetches that buffer back to add to it
//     (async_accumulate_grad_in_cpu_via_gpu): 2 bytes per parameter each way per micro-step;
//   - on the host, per parameter: the unscale/clip multiply of the fp32 gradient (read and write, 8),
//     CPU Adam (csrc/adam/cpu_adam_impl.cpp: reads gradient, weight, m, v and writes weight, m, v: 28),
//     the copy of the weight into a 16-bit buffer (6), and the two DMA transfers' own memory traffic
//     (4 in, 2 out): 48 bytes at host memory bandwidth;
//   - the 16-bit weights back to the device: 2 bytes per parameter.
// All of it runs one after the other with the device's compute stream waiting (DeepSpeed's overlap_comm,
// which moves the copies off it, defaults to true only for ZeRO-3; not modelled), and is charged after
// the backward (the per-micro-step copies happen inside the backward passes; for a run whose compute
// stream is busy throughout, the sum is the same). ZeRO-3's offload (stage3.py, overlap_comm on by default)
// is charged the same bytes without that overlap: an upper bound. Megatron-Core's --optimizer-cpu-offload moves other
// bytes (fp32 weights back, no per-micro-step copies) and is not modelled apart. FP8 weight
// re-quantization (iteration_step's other kernels) stays on the device.
#pragma once
#include "sim/config/run_spec.hpp"
#include "sim/core/units.hpp"
#include "sim/model/params.hpp"

namespace trainsim {

// The offloaded step's host-side parts, in seconds, for `shard_params` parameters and `microbatches`
// micro-steps of gradient accumulation per iteration on a platform's host side.
struct OffloadedStep {
  Seconds accumulation = 0;       // per-micro-step 16-bit copies (none with one micro-batch)
  Seconds gradients_to_host = 0;  // 4 bytes per parameter over host_link_bandwidth
  Seconds host_adam = 0;          // 48 bytes per parameter over host_memory_bandwidth
  Seconds weights_to_device = 0;  // 2 bytes per parameter over host_link_bandwidth
  [[nodiscard]] Seconds total() const { return accumulation + gradients_to_host + host_adam + weights_to_device; }
};

// Requires host_link_bandwidth and host_memory_bandwidth > 0 (platform_fit refuses runs without them).
[[nodiscard]] OffloadedStep offloaded_step(double shard_params, double microbatches, const PlatformSpec& platform);

// What the step costs a device: its kernels on the device (seconds, FLOP, HBM bytes) and the seconds
// the device waits for the host side of an offloaded step.
struct StepCost {
  Seconds device = 0;
  Flops flops = 0;
  Bytes bytes = 0;
  Seconds host = 0;
};

// The step of a device holding `device` parameters, `shard` of them in its optimizer shard
// (zero_shard_fraction).
[[nodiscard]] StepCost optimizer_step_cost(const RunSpec& run, const ParamCount& device, double shard);

}  // namespace trainsim
