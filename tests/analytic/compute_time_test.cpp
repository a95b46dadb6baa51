#include <catch2/catch.hpp>

#include "sim/analytic/compute_time.hpp"
#include "sim/core/error.hpp"

using namespace trainsim;

namespace {
// Round numbers for hand work: 1 PFLOP/s bf16, 4 TB/s at 50% → 2e12 B/s effective,
// 10 compute units, 128×128 tiles, GEMM 80%, attention 50%, 5 µs launch.
AcceleratorSpec test_accelerator() {
  AcceleratorSpec a;
  a.name = "test";
  a.peak_flops[Precision::kBf16] = 1e15;
  a.memory_bandwidth = 4e12;
  a.memory_efficiency = 0.5;
  a.compute_units = 10;
  a.gemm_tile_m = 128;
  a.gemm_tile_n = 128;
  a.gemm_efficiency = 0.8;
  a.attention_efficiency = 0.5;
  a.kernel_overhead = 5e-6;
  return a;
}
Kernel gemm(int64_t m, int64_t n, int64_t k, double flops, double bytes) {
  Kernel x;
  x.cls = KernelClass::kGemm;
  x.gemm = {m, n, k, 1};
  x.flops = flops;
  x.bytes = bytes;
  return x;
}
}  // namespace

TEST_CASE("a compute-bound GEMM filling whole waves runs at peak times gemm efficiency", "[analytic]") {
  // 1280×1280×16384: 10·10 = 100 tiles = 10 full waves on 10 units (wave efficiency 1).
  // FLOP 2·1280·1280·16384 = 53,687,091,200 → / (1e15·0.8) = 67.108864 µs.
  // Bytes (1280·16384·2 + 1280²)·2 B = 87,162,880 → / 2e12 = 43.58 µs < compute.
  const Kernel k = gemm(1280, 1280, 16384, 53687091200.0, 87162880.0);
  CHECK(kernel_time(k, test_accelerator()) == Approx(67.108864e-6 + 5e-6));
}

TEST_CASE("a GEMM whose tiles leave the last wave partly empty loses that fraction", "[analytic]") {
  AcceleratorSpec a = test_accelerator();
  a.compute_units = 16;
  // 100 tiles on 16 units: ceil(100/16) = 7 waves = 112 slots → 100/112.
  CHECK(wave_efficiency({1280, 1280, 64, 1}, a) == Approx(100.0 / 112.0));
  // One 128×128 tile per group, 8 groups: 8 tiles in one wave of 16 → 0.5.
  CHECK(wave_efficiency({128, 128, 64, 8}, a) == Approx(0.5));
  // Partial tiles count whole: 129×1 → 2 tiles → 2/16.
  CHECK(wave_efficiency({129, 1, 64, 1}, a) == Approx(2.0 / 16.0));
  // Time: the 1280² GEMM above now takes 67.108864 µs / (100/112) = 75.16192768 µs.
  const Kernel k = gemm(1280, 1280, 16384, 53687091200.0, 87162880.0);
  CHECK(kernel_time(k, a) == Approx(75.16192768e-6 + 5e-6));
}

TEST_CASE("a GEMM with more bytes than its FLOPs can hide is memory-bound", "[analytic]") {
  // 1 GB moved, 1 GFLOP: memory 1e9 / 2e12 = 500 µs ≫ compute 1e9 / 8e14 = 1.25 µs.
  const Kernel k = gemm(1280, 1280, 1, 1e9, 1e9);
  CHECK(kernel_time(k, test_accelerator()) == Approx(500e-6 + 5e-6));
}

TEST_CASE("elementwise kernels take only their bytes over effective bandwidth", "[analytic]") {
  Kernel k;
  k.cls = KernelClass::kElementwise;
  k.flops = 1e15;  // ignored for memory-bound classes
  k.bytes = 1e9;   // 1e9 / 2e12 = 500 µs
  CHECK(kernel_time(k, test_accelerator()) == Approx(505e-6));
  k.cls = KernelClass::kOptimizer;
  CHECK(kernel_time(k, test_accelerator()) == Approx(505e-6));
}

TEST_CASE("fused attention runs at peak times attention efficiency", "[analytic]") {
  Kernel k;
  k.cls = KernelClass::kAttention;
  k.flops = 1e12;  // 1e12 / (1e15·0.5) = 2 ms
  k.bytes = 1e6;   // 0.5 µs
  CHECK(kernel_time(k, test_accelerator()) == Approx(2e-3 + 5e-6));
}

TEST_CASE("a precision without its own peak falls back to the units that would run it", "[analytic]") {
  AcceleratorSpec a = test_accelerator();
  a.peak_flops[Precision::kFp32] = 60e12;
  CHECK(peak_flops(a, Precision::kFp8) == 1e15);    // no FP8 units: runs as bf16
  CHECK(peak_flops(a, Precision::kFp16) == 1e15);   // fp16 and bf16 share the units
  CHECK(peak_flops(a, Precision::kTf32) == 60e12);  // no TF32: plain fp32
  a.peak_flops[Precision::kFp8] = 2e15;
  CHECK(peak_flops(a, Precision::kFp8) == 2e15);    // its own peak wins when listed
  AcceleratorSpec only16 = test_accelerator();
  CHECK_THROWS_AS(peak_flops(only16, Precision::kFp32), UserError);
}

TEST_CASE("dropout inside fused attention adds its random numbers at the accelerator's rate", "[analytic]") {
  Kernel k;
  k.cls = KernelClass::kAttention;
  k.flops = 1e12;            // 2 ms, as above
  k.random_elements = 1e9;   // at 1e12 per second: 1 ms more
  AcceleratorSpec a = test_accelerator();
  CHECK(kernel_time(k, a) == Approx(2e-3 + 5e-6));  // rate 0: not modelled
  a.dropout_rng_rate = 1e12;
  CHECK(kernel_time(k, a) == Approx(3e-3 + 5e-6));
}

TEST_CASE("without wave quantization a GEMM's partly filled last wave costs nothing", "[analytic]") {
  // 11 tiles of 128 x 128 on 10 units: two waves, 11 of 20 slots busy, unless the library balances it.
  const GemmShape eleven{1408, 128, 1024, 1};
  AcceleratorSpec a = test_accelerator();
  CHECK(wave_efficiency(eleven, a) == Approx(0.55));
  a.gemm_wave_quantization = false;
  CHECK(wave_efficiency(eleven, a) == Approx(1.0));
}

TEST_CASE("fused attention loses a fixed cost per query tile, counted in keys", "[analytic]") {
  // Queries attending 1024 keys with 1024 keys of fixed cost per tile run at half the efficiency:
  // 1e12 FLOP at 1e15 x 0.5 x 0.5 = 4 ms.
  Kernel k;
  k.cls = KernelClass::kAttention;
  k.flops = 1e12;
  k.attention_keys = 1024;
  AcceleratorSpec a = test_accelerator();
  a.attention_k_overhead = 1024;
  CHECK(attention_depth_efficiency(k, a) == Approx(0.5));
  CHECK(kernel_time(k, a) == Approx(4e-3 + 5e-6));
  k.attention_keys = 0;  // unknown depth: no loss
  CHECK(attention_depth_efficiency(k, a) == Approx(1.0));
}

TEST_CASE("mxfp8 has its own peak and nothing stands in for it", "[analytic]") {
  AcceleratorSpec a = test_accelerator();
  a.peak_flops[Precision::kFp8] = 2e15;
  // A Hopper-like card: FP8 tensor cores but no block-scaled MMA.
  CHECK_THROWS_AS(peak_flops(a, Precision::kMxfp8), UserError);
  a.peak_flops[Precision::kMxfp8] = 2e15;
  CHECK(peak_flops(a, Precision::kMxfp8) == 2e15);
  // One E8M0 scale byte per 32 one-byte elements (OCP MX v1.0): 33/32 bytes per element.
  CHECK(bytes_per_element(Precision::kMxfp8) == Approx(33.0 / 32.0));
  CHECK(is_fp8(Precision::kMxfp8));
  CHECK(is_fp8(Precision::kFp8));
  CHECK_FALSE(is_fp8(Precision::kBf16));
}

TEST_CASE("an 8-bit GEMM runs at the 8-bit peak times its own efficiency level", "[analytic][fp8]") {
  // The 1280x1280x16384 GEMM above (10 full waves, depth overhead 0): 53,687,091,200 FLOP at
  // 2e15 x 0.6 = 1.2e15 FLOP/s -> 44.739243 us; as bf16 at 1e15 x 0.8 it took 67.108864 us.
  AcceleratorSpec a = test_accelerator();
  a.peak_flops[Precision::kFp8] = 2e15;
  a.fp8_gemm_efficiency = 0.6;
  Kernel k = gemm(1280, 1280, 16384, 53687091200.0, 0);
  k.precision = Precision::kFp8;
  CHECK(kernel_time(k, a) == Approx(44.739243e-6 + 5e-6));
  k.precision = Precision::kBf16;  // the same GEMM kept in 16 bit
  CHECK(kernel_time(k, a) == Approx(67.108864e-6 + 5e-6));
}

TEST_CASE("an MXFP8 GEMM runs at the fp8 level times the card's MXFP8 ratio", "[analytic][fp8]") {
  // The same GEMM in mxfp8 at 2e15 x 0.6 x 0.75 = 0.9e15 FLOP/s -> 59.652324 us; a card that leaves the
  // ratio at 1 runs it at the fp8 rate (44.739243 us), and the ratio does not touch fp8 GEMMs.
  AcceleratorSpec a = test_accelerator();
  a.peak_flops[Precision::kFp8] = 2e15;
  a.peak_flops[Precision::kMxfp8] = 2e15;
  a.fp8_gemm_efficiency = 0.6;
  Kernel k = gemm(1280, 1280, 16384, 53687091200.0, 0);
  k.precision = Precision::kMxfp8;
  CHECK(kernel_time(k, a) == Approx(44.739243e-6 + 5e-6));
  a.mxfp8_gemm_ratio = 0.75;
  CHECK(gemm_level(a, Precision::kMxfp8) == Approx(0.45));
  CHECK(kernel_time(k, a) == Approx(59.652324e-6 + 5e-6));
  k.precision = Precision::kFp8;
  CHECK(kernel_time(k, a) == Approx(44.739243e-6 + 5e-6));
}

TEST_CASE("an 8-bit GEMM needs the accelerator's fp8 efficiency, unless it runs in 16 bit", "[analytic][fp8]") {
  AcceleratorSpec a = test_accelerator();
  Kernel k = gemm(1280, 1280, 16384, 53687091200.0, 0);
  k.precision = Precision::kFp8;
  // No FP8 units: the GEMM executes in bf16 at the bf16 level, 67.108864 us as above.
  CHECK(gemm_level(a, Precision::kFp8) == 0.8);
  CHECK(kernel_time(k, a) == Approx(67.108864e-6 + 5e-6));
  a.peak_flops[Precision::kFp8] = 2e15;  // FP8 units but no fp8_gemm_efficiency given
  CHECK_THROWS_AS(kernel_time(k, a), UserError);
}

TEST_CASE("attention keeps its 16-bit peak when the GEMMs run in fp8", "[analytic][fp8]") {
  // 1e12 FLOP of fused attention at bf16 1e15 x 0.5 = 2 ms, whatever FP8 peak the card has.
  AcceleratorSpec a = test_accelerator();
  a.peak_flops[Precision::kFp8] = 2e15;
  a.fp8_gemm_efficiency = 0.6;
  Kernel k;
  k.cls = KernelClass::kAttention;
  k.flops = 1e12;
  k.precision = Precision::kBf16;
  CHECK(kernel_time(k, a) == Approx(2e-3 + 5e-6));
}

TEST_CASE("a GEMM's fixed cost per tile is the same time in fp8, so more of its shorter K-steps", "[analytic][fp8]") {
  // bf16: K0 = 1024 steps; K = 1024 -> depth efficiency 1024 / 2048 = 0.5.
  // fp8 at 2e15 x 0.6 = 1.2e15 vs bf16 1e15 x 0.8 = 0.8e15: r = 1.5, K0 = 1536 -> 1024 / 2560 = 0.4.
  AcceleratorSpec a = test_accelerator();
  a.gemm_k_overhead = 1024;
  a.peak_flops[Precision::kFp8] = 2e15;
  a.fp8_gemm_efficiency = 0.6;
  const GemmShape g{1280, 1280, 1024, 1};
  CHECK(depth_efficiency(g, a, Precision::kBf16) == Approx(0.5));
  CHECK(depth_efficiency(g, a, Precision::kFp8) == Approx(0.4));
}
