#include "sim/analytic/compute_time.hpp"

#include <algorithm>
#include <vector>

#include "sim/core/error.hpp"

namespace trainsim {
namespace {

// The order in which precisions stand in for `p` (first = p itself).
std::vector<Precision> fallback_chain(Precision p) {
  switch (p) {
    case Precision::kFp32: return {Precision::kFp32};
    case Precision::kTf32: return {Precision::kTf32, Precision::kFp32};
    case Precision::kBf16: return {Precision::kBf16, Precision::kFp16};
    case Precision::kFp16: return {Precision::kFp16, Precision::kBf16};
    case Precision::kFp8: return {Precision::kFp8, Precision::kBf16, Precision::kFp16};
    case Precision::kMxfp8: return {Precision::kMxfp8};  // block-scaled MMA: no stand-in (Hopper has none)
  }
  return {p};
}

int64_t ceil_div64(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

Precision executed_precision(const AcceleratorSpec& acc, Precision p) {
  for (Precision candidate : fallback_chain(p)) {
    auto it = acc.peak_flops.find(candidate);
    if (it != acc.peak_flops.end() && it->second > 0) return candidate;
  }
  throw UserError("accelerator '" + acc.name + "' lists no peak_flops for " + to_string(p) +
                  " nor a precision that can stand in for it");
}

FlopsPerSecond peak_flops(const AcceleratorSpec& acc, Precision p) {
  return acc.peak_flops.at(executed_precision(acc, p));
}

double gemm_level(const AcceleratorSpec& acc, Precision p) {
  if (!is_fp8(executed_precision(acc, p))) return acc.gemm_efficiency;
  if (acc.fp8_gemm_efficiency <= 0)
    throw UserError("accelerator '" + acc.name + "' gives no fp8_gemm_efficiency, which its " + to_string(p) +
                    " GEMMs need (the fraction of its " + to_string(p) + " peak a large 8-bit GEMM reaches)");
  const bool block_scaled = executed_precision(acc, p) == Precision::kMxfp8;
  return block_scaled ? acc.fp8_gemm_efficiency * acc.mxfp8_gemm_ratio : acc.fp8_gemm_efficiency;
}

// Every output tile pays a fixed prologue/epilogue (loading the first operand slices, writing
// C) worth `gemm_k_overhead` steps of its K loop, so a GEMM of depth K reaches K/(K + K0) of
// the deep-GEMM rate: shallow GEMMs (small hidden sizes) run slower per FLOP.
double depth_efficiency(const GemmShape& g, const AcceleratorSpec& acc, Precision p) {
  const double k = static_cast<double>(g.k);
  if (k <= 0) return 1.0;
  double k0 = acc.gemm_k_overhead;
  if (is_fp8(executed_precision(acc, p))) {
    const double rate = peak_flops(acc, p) * gemm_level(acc, p);
    const double rate16 = peak_flops(acc, Precision::kBf16) * acc.gemm_efficiency;
    k0 *= rate / rate16;
  }
  return k / (k + k0);
}

double attention_depth_efficiency(const Kernel& k, const AcceleratorSpec& acc) {
  return k.attention_keys > 0 ? k.attention_keys / (k.attention_keys + acc.attention_k_overhead) : 1.0;
}

double attention_tail(const Kernel& k, const AcceleratorSpec& acc) {
  if (k.attention_keys <= 0 || k.attention_tiles <= 0 || acc.compute_units <= 0) return 0;
  return acc.compute_units * (k.attention_max_keys + acc.attention_k_overhead) / (k.attention_tiles * k.attention_keys);
}

double attention_level(const Kernel& k, const AcceleratorSpec& acc) {
  return k.attention_backward && acc.attention_backward_efficiency > 0 ? acc.attention_backward_efficiency
                                                                        : acc.attention_efficiency;
}

double wave_efficiency(const GemmShape& g, const AcceleratorSpec& acc) {
  const int64_t tile_m = std::max(1, acc.gemm_tile_m);
  const int64_t tile_n = std::max(1, acc.gemm_tile_n);
  const int64_t units = std::max(1, acc.compute_units);
  const int64_t tiles = ceil_div64(g.m, tile_m) * ceil_div64(g.n, tile_n) * g.batch;
  if (tiles <= 0 || !acc.gemm_wave_quantization) return 1.0;
  const int64_t waves = ceil_div64(tiles, units);
  return static_cast<double>(tiles) / static_cast<double>(waves * units);
}

Seconds kernel_time(const Kernel& k, const AcceleratorSpec& acc) {
  const Seconds memory = k.bytes > 0 ? k.bytes / (acc.memory_bandwidth * acc.memory_efficiency) : 0.0;
  Seconds compute = 0;
  if (k.cls == KernelClass::kGemm && k.flops > 0) {
    GemmShape each = k.gemm;  // the shape of one launch (a grouped GEMM run as one GEMM per expert)
    each.batch = std::max<int64_t>(1, k.gemm.batch / std::max(1, k.launches));
    compute = k.flops / (peak_flops(acc, k.precision) * gemm_level(acc, k.precision) * wave_efficiency(each, acc) *
                         depth_efficiency(k.gemm, acc, k.precision));
  } else if (k.cls == KernelClass::kAttention && k.flops > 0) {
    compute = k.flops / (peak_flops(acc, k.precision) * attention_level(k, acc)) *
              (1 / attention_depth_efficiency(k, acc) + attention_tail(k, acc));
    if (acc.dropout_rng_rate > 0) compute += k.random_elements / acc.dropout_rng_rate;
  }
  return std::max(compute, memory) + acc.kernel_overhead * std::max(1, k.launches);
}

}  // namespace trainsim
