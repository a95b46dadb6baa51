// The FP8 GEMM level and quantization kernels against a published Hopper measurement: Transformer
// Engine's GEMM benchmark of a 5B model (hidden 4096, intermediate 16384, M = 31 x 512 = 15,872
// tokens; the 4 forward, 4 input-gradient and 4 weight-gradient GEMMs of a layer) on one H200 NVL
// (NVIDIA/TransformerEngine docs/features/low_precision_training/speedups.rst at commit 03b5742,
// "Example: 5B Model on H200 (Hopper)"): pre-quantized FP8 GEMMs run 1.92x the BF16 ones; in
// autocast mode (each te.Linear call quantizes its input and its weight, both with transposes, as
// benchmarks/gemm/benchmark_gemm.py does without weight caching) delayed scaling gives 1.69x and
// current scaling 1.57x. The preset's kernel parameters are used with the H200 NVL's peaks and HBM
// bandwidth (NVIDIA H200 datasheet, "H200 NVL": BF16 1,671 and FP8 3,341 TFLOPS with sparsity, i.e.
// 835.5 / 1,670.5 dense; 4.8 TB/s), and the isolated FP8/BF16 GEMM level ratio 0.966 that the preset's
// comment derives from the pre-quantized figure (its fp8_gemm_efficiency is the lower training level,
// calibrated on training runs).
#include <catch2/catch.hpp>
#include <vector>

#include "sim/analytic/compute_time.hpp"
#include "sim/config/loader.hpp"
#include "sim/model/fp8_quantize.hpp"
#include "sim/model/kernel_builders.hpp"

using namespace trainsim;

namespace {
struct Shape {
  int64_t m, k, n;  // C[m x n] = A[m x k] B[k x n]
};

std::vector<Shape> five_b_layer() {
  const int64_t t = 31 * 512, h = 4096, f = 16384;
  std::vector<Shape> out;
  for (const Shape& fwd : {Shape{t, h, 3 * h}, Shape{t, h, h}, Shape{t, h, f}, Shape{t, f, h}}) {
    out.push_back(fwd);
    out.push_back({fwd.m, fwd.n, fwd.k});  // input gradient
    out.push_back({fwd.k, fwd.m, fwd.n});  // weight gradient
  }
  return out;
}

constexpr double kIsolatedLevelRatio = 0.966;  // FP8 over BF16 GEMM level of isolated kernels

AcceleratorSpec h200_nvl() {
  AcceleratorSpec a = load_platform("dgx-h100-superpod").accelerator;
  a.peak_flops = {{Precision::kBf16, 835.5e12}, {Precision::kFp8, 1670.5e12}};
  a.memory_bandwidth = 4.8e12;
  a.fp8_gemm_efficiency = kIsolatedLevelRatio * a.gemm_efficiency;
  return a;
}

// Seconds of the layer's 12 GEMMs in `p`, each with the quantization of both operands under `recipe`
// when `autocast` (TE quantizes the input and the uncached weight at every call).
double layer_seconds(const AcceleratorSpec& acc, Precision p, bool autocast, Fp8Recipe recipe) {
  Shard sh;
  sh.precision = p;
  sh.fp8_recipe = recipe;
  double total = 0;
  for (const Shape& s : five_b_layer()) {
    total += kernel_time(gemm_kernel("gemm", {s.m, s.n, s.k, 1}, p), acc);
    if (!autocast) continue;
    for (double elements : {static_cast<double>(s.m * s.k), static_cast<double>(s.k * s.n)})
      for (const Kernel& q : quantize_kernels("q", elements, sh, true)) total += kernel_time(q, acc);
  }
  return total;
}
}  // namespace

TEST_CASE("an isolated fp8 GEMM level of 0.966 x bf16 reproduces TE's pre-quantized 1.92x on Hopper", "[analytic][fp8]") {
  const AcceleratorSpec acc = h200_nvl();
  const double bf16 = layer_seconds(acc, Precision::kBf16, false, Fp8Recipe::kDelayed);
  const double fp8 = layer_seconds(acc, Precision::kFp8, false, Fp8Recipe::kDelayed);
  CHECK(bf16 / fp8 == Approx(1.92).epsilon(0.01));
}

TEST_CASE("quantization traffic puts TE's autocast FP8 speedups within 5% on Hopper", "[analytic][fp8]") {
  // Measured 1.69x (delayed: one read, cast+transpose) and 1.57x (current: amax pass + cast). The
  // model gives 1.63x and 1.51x: its casts run at the preset's memory level (fitted to other
  // memory-bound kernels), a little slower than TE's cast kernels reach.
  const AcceleratorSpec acc = h200_nvl();
  const double bf16 = layer_seconds(acc, Precision::kBf16, false, Fp8Recipe::kDelayed);
  CHECK(bf16 / layer_seconds(acc, Precision::kFp8, true, Fp8Recipe::kDelayed) == Approx(1.69).epsilon(0.05));
  CHECK(bf16 / layer_seconds(acc, Precision::kFp8, true, Fp8Recipe::kCurrent) == Approx(1.57).epsilon(0.05));
  // Current scaling's second read makes it slower than delayed scaling, as measured.
  CHECK(layer_seconds(acc, Precision::kFp8, true, Fp8Recipe::kCurrent) >
        layer_seconds(acc, Precision::kFp8, true, Fp8Recipe::kDelayed));
}
