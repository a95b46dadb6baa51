// The optimizer step on one device: mixed-precision Adam(W) over the parameters this device
// updates (all of its parameters, or its 1/N shard under ZeRO >= 1 / the distributed optimizer).
#pragma once
#include <vector>

#include "sim/model/kernel.hpp"
#include "sim/model/params.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

// HBM traffic of one fused (multi-tensor) Adam update per parameter, mixed precision with fp32
// master weights and fp32 main gradients (Megatron distributed optimizer):
//   read  fp32 gradient 4 + fp32 master weight 4 + m 4 + v 4            = 16 bytes
//   write fp32 master weight 4 + m 4 + v 4 + 16-bit model weight copy 2 = 14 bytes
// i.e. 30 bytes/param moved. (The "16 bytes/param" often quoted is the resident state of the
// ZeRO paper, 2+2+12, not the traffic of the step.)
inline constexpr double kAdamReadBytesPerParam = 16;
inline constexpr double kAdamWriteBytesPerParam = 14;
// Approximate FLOP per parameter: two moment updates (≈7), bias correction, sqrt, divide,
// weight decay and the update (≈5). Irrelevant to time: the step is memory-bound.
inline constexpr double kAdamFlopsPerParam = 12;
// Gradient-norm (clipping) pass: reads the fp32 gradient once, square-and-add per element.
inline constexpr double kGradNormBytesPerParam = 4;

// The gradient-norm (clipping) pass over `params` parameters: optimizer.grad_norm (kElementwise).
[[nodiscard]] Kernel grad_norm_kernel(double params);

// [optimizer.grad_norm (kElementwise), optimizer.adam (kOptimizer)] over
// params_on_device × zero_sharded_fraction parameters (fraction = 1, or 1/N under ZeRO >= 1).
[[nodiscard]] std::vector<Kernel> optimizer_step(double params_on_device, double zero_sharded_fraction);

// The fraction of a device's parameters `device` in its optimizer shard: 1 without ZeRO; with ZeRO >= 1,
// 1/(cp·dp) of those reduced over the data-parallel group with context parallelism and, with expert
// parallelism (ep > 1), 1/(cp·dp/ep) of the routed experts', which Megatron-Core's distributed
// optimizer shards over the expert data-parallel group (sim/strategy/mesh.hpp, expert_grad_dim).
[[nodiscard]] double zero_shard_fraction(const ParamCount& device, const StrategySpec& s);

// Everything a device runs once per iteration after its last backward: optimizer_step over its
// parameters `device` (ZeRO-sharded by `zero_sharded_fraction`) and, in 8-bit runs, the re-quantization
// of its Linear weights (sim/model/fp8_quantize.hpp; TE does it on the next step's first micro-batch,
// the same work at the iteration's other end).
[[nodiscard]] std::vector<Kernel> iteration_step(const ParamCount& device, double zero_sharded_fraction,
                                                 const Shard& sh, bool fp8_param_gather);

}  // namespace trainsim
