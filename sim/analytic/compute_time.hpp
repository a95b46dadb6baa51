// Time of one compute kernel on an idle device: a roofline with shape-dependent efficiency.
#pragma once
#include "sim/config/platform_spec.hpp"
#include "sim/config/precision.hpp"
#include "sim/core/units.hpp"
#include "sim/model/kernel.hpp"

namespace trainsim {

// Dense peak FLOP/s for `p`. When the accelerator lists no peak for it, falls back to the
// precision the hardware would run it as: tf32 → fp32 (no TF32 units: plain fp32), fp8 → bf16
// → fp16 (no FP8 units: runs in 16 bit), fp16 ↔ bf16 (same units). Throws UserError when none
// of them is listed.
[[nodiscard]] FlopsPerSecond peak_flops(const AcceleratorSpec& acc, Precision p);

// Wave quantization of a GEMM: tiles = ceil(m/tile_m)·ceil(n/tile_n)·batch output tiles run in
// waves = ceil(tiles / compute_units); efficiency = tiles / (waves·compute_units), 1 for a
// GEMM that fills whole waves (NVIDIA "Matrix Multiplication Background" user guide, wave
// quantization). 1 for an empty shape, and 1 when the accelerator's GEMM library balances the
// last wave (AcceleratorSpec::gemm_wave_quantization false).
[[nodiscard]] double wave_efficiency(const GemmShape& g, const AcceleratorSpec& acc);
// K / (K + gemm_k_overhead): the share of a tile's time spent in its K loop.
[[nodiscard]] double depth_efficiency(const GemmShape& g, const AcceleratorSpec& acc);
// The same for fused attention: L / (L + attention_k_overhead), L = Kernel::attention_keys, the keys
// each query tile loops over on average; 1 when L is unknown (0).
[[nodiscard]] double attention_depth_efficiency(const Kernel& k, const AcceleratorSpec& acc);

// Roofline: max(flops / (peak[p]·eff), bytes / (memory_bandwidth·memory_efficiency))
// + kernel_overhead, with eff = gemm_efficiency·wave_efficiency·depth_efficiency for kGemm and
// attention_efficiency·attention_depth_efficiency for kAttention, whose compute term also pays
// random_elements / dropout_rng_rate when the accelerator models it. Memory-bound classes
// (elementwise, embedding, optimizer) use only the bytes term.
[[nodiscard]] Seconds kernel_time(const Kernel& k, const AcceleratorSpec& acc, Precision p);

}  // namespace trainsim
