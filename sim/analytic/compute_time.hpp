// Time of one compute kernel on an idle device: a roofline with shape-dependent efficiency.
#pragma once
#include "sim/config/platform_spec.hpp"
#include "sim/config/precision.hpp"
#include "sim/core/units.hpp"
#include "sim/model/kernel.hpp"

namespace trainsim {

// The precision a kernel asked to run in `p` executes at: `p` when the accelerator lists a peak for
// it, else the first stand-in it lists: tf32 → fp32 (no TF32 units: plain fp32), fp8 → bf16 → fp16
// (no FP8 units: runs in 16 bit), fp16 ↔ bf16 (same units); mxfp8 has no stand-in. Throws
// UserError when none of them is listed.
[[nodiscard]] Precision executed_precision(const AcceleratorSpec& acc, Precision p);
// Dense peak FLOP/s of executed_precision(acc, p).
[[nodiscard]] FlopsPerSecond peak_flops(const AcceleratorSpec& acc, Precision p);
// The efficiency level of a large, well-shaped GEMM run in `p`: fp8_gemm_efficiency when it executes
// in 8 bits (times mxfp8_gemm_ratio for mxfp8), else gemm_efficiency. Throws UserError for an 8-bit
// GEMM on an accelerator that gives no fp8_gemm_efficiency.
[[nodiscard]] double gemm_level(const AcceleratorSpec& acc, Precision p);

// Wave quantization of a GEMM: tiles = ceil(m/tile_m)·ceil(n/tile_n)·batch output tiles run in
// waves = ceil(tiles / compute_units); efficiency = tiles / (waves·compute_units), 1 for a
// GEMM that fills whole waves (NVIDIA "Matrix Multiplication Background" user guide, wave
// quantization). 1 for an empty shape, and 1 when the accelerator's GEMM library balances the
// last wave (AcceleratorSpec::gemm_wave_quantization false).
[[nodiscard]] double wave_efficiency(const GemmShape& g, const AcceleratorSpec& acc);
// K / (K + K0): the share of a tile's time spent in its K loop. K0 = gemm_k_overhead for a 16-bit
// GEMM. The overhead is a fixed time per tile (prologue, epilogue writing C in 16 bit) that the
// parameter expresses in 16-bit K-steps; a GEMM running at r times the 16-bit rate
// (r = peak·level in its precision over peak·level in bf16) takes 1/r of the time per K-step, so
// the same fixed time is K0·r of its steps.
[[nodiscard]] double depth_efficiency(const GemmShape& g, const AcceleratorSpec& acc,
                                      Precision p = Precision::kBf16);
// The same for fused attention: L / (L + attention_k_overhead), L = Kernel::attention_keys, the keys
// each query tile loops over on average; 1 when L is unknown (0).
[[nodiscard]] double attention_depth_efficiency(const Kernel& k, const AcceleratorSpec& acc);
// The last query tiles' tail, as a fraction of the work at full rate: the kernel's tiles run on
// compute_units units at once, each taking its keys plus attention_k_overhead at one unit's share of
// the rate, so list scheduling ends at most one longest tile after the average load (Graham 1969:
// makespan <= work / units + longest job). With W = tiles·(L + L0) key-steps of work spread over U
// units and a longest tile of Lmax + L0, the time is (W / U + Lmax + L0) key-steps, i.e. the
// full-rate time times (L + L0) / L + U·(Lmax + L0) / (tiles·L). 0 when the tiles are unknown.
// Few tiles (one head, one sequence) make the longest tile the whole kernel; many make it vanish.
[[nodiscard]] double attention_tail(const Kernel& k, const AcceleratorSpec& acc);
// attention_backward_efficiency for a backward kernel when the accelerator gives one, else
// attention_efficiency.
[[nodiscard]] double attention_level(const Kernel& k, const AcceleratorSpec& acc);

// Roofline: max(flops / (peak[k.precision]·eff), bytes / (memory_bandwidth·memory_efficiency))
// + kernel_overhead·launches, with eff = gemm_level·wave_efficiency·depth_efficiency for kGemm and
// attention_level / (1 / attention_depth_efficiency + attention_tail) for kAttention, whose compute term also pays
// random_elements / dropout_rng_rate when the accelerator models it. Memory-bound classes
// (elementwise, embedding, optimizer) use only the bytes term. A GEMM launched as `launches`
// kernels (Kernel::launches) has its waves counted per launch (batch / launches each).
[[nodiscard]] Seconds kernel_time(const Kernel& k, const AcceleratorSpec& acc);

}  // namespace trainsim
