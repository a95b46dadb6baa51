// The kernel-time model against measured kernels (`trainsim kernels`): hand-worked predictions of
// GEMMs, attention and streams, a fit that recovers parameters it generated, strict loading, and
// the H100 preset against its measured tables.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "sim/config/kernel_measurements.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/validate/accelerator_params.hpp"
#include "sim/validate/kernel_fit.hpp"
#include "sim/validate/kernel_report.hpp"

using namespace trainsim;
namespace fs = std::filesystem;

namespace {

// 10 units, 128 x 128 tiles, 100 TFLOP/s bf16, memory never the bound, no launch cost.
AcceleratorSpec toy_accelerator() {
  AcceleratorSpec acc;
  acc.name = "toy";
  acc.peak_flops[Precision::kBf16] = 100e12;
  acc.compute_units = 10;
  acc.gemm_tile_m = 128;
  acc.gemm_tile_n = 128;
  acc.gemm_efficiency = 0.5;
  acc.gemm_k_overhead = 1024;  // depth efficiency 1/2 at k = 1024
  acc.attention_efficiency = 0.5;
  acc.memory_bandwidth = 1e18;
  acc.memory_efficiency = 1;
  acc.kernel_overhead = 0;
  return acc;
}

double gemm_flops(int64_t batch, int64_t m, int64_t n, int64_t k) { return 2.0 * batch * m * n * static_cast<double>(k); }

KernelMeasurement gemm(int64_t batch, int64_t m, int64_t n, int64_t k, double tflops) {
  KernelMeasurement g;
  g.gemm = {m, n, k, batch};
  g.measured_s = gemm_flops(batch, m, n, k) / (tflops * 1e12);
  return g;
}

KernelMeasurement attention(int64_t heads, int64_t seq, int64_t head_dim, bool backward, double seconds) {
  KernelMeasurement a;
  a.kind = MeasuredKind::kAttention;
  a.attention = {1, heads, seq, head_dim, backward};
  a.measured_s = seconds;
  return a;
}

KernelMeasurement stream(double bytes, int launches, double seconds) {
  KernelMeasurement s;
  s.kind = MeasuredKind::kStream;
  s.op = "copy";
  s.bytes = bytes;
  s.launches = launches;
  s.measured_s = seconds;
  return s;
}

double predicted_tflops(const KernelMeasurement& g, const AcceleratorSpec& acc) {
  return gemm_flops(g.gemm.batch, g.gemm.m, g.gemm.n, g.gemm.k) / predict_kernel(g, acc, Precision::kBf16).predicted_s / 1e12;
}

// An H100-like accelerator (132 units, 128 x 256 tiles, 989 TFLOP/s, 3.35 TB/s).
AcceleratorSpec hopper_like(double efficiency, double k_overhead, double overhead_s) {
  AcceleratorSpec acc = toy_accelerator();
  acc.peak_flops[Precision::kBf16] = 989e12;
  acc.compute_units = 132;
  acc.gemm_tile_n = 256;
  acc.memory_bandwidth = 3.35e12;
  acc.memory_efficiency = 0.85;
  acc.gemm_efficiency = efficiency;
  acc.gemm_k_overhead = k_overhead;
  acc.kernel_overhead = overhead_s;
  return acc;
}

fs::path scratch_file(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("trainsim-kernels-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

std::string load_error(const std::string& sections) {
  const fs::path file = scratch_file("t.yaml", "accelerator: toy\nprecision: bf16\nsource: test\n" + sections);
  try {
    (void)load_kernel_measurements(file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

double mean_abs_error(const std::vector<KernelRowResult>& rows) {
  double sum = 0;
  for (const auto& r : rows) sum += std::fabs(r.error_percent);
  return rows.empty() ? 0 : sum / static_cast<double>(rows.size());
}

double max_abs_error(const std::vector<KernelRowResult>& rows) {
  double worst = 0;
  for (const auto& r : rows) worst = std::max(worst, std::fabs(r.error_percent));
  return worst;
}

}  // namespace

TEST_CASE("a GEMM's predicted throughput is peak x efficiency x wave x depth, worked by hand", "[validate]") {
  const AcceleratorSpec acc = toy_accelerator();
  // 10 tiles on 10 units: one full wave; depth 1024 / (1024 + 1024) = 1/2 -> 100 x 0.5 x 1 x 0.5 = 25.
  CHECK(predicted_tflops(gemm(1, 1280, 128, 1024, 50), acc) == Approx(25.0));
  CHECK(predict_kernel(gemm(1, 1280, 128, 1024, 50), acc, Precision::kBf16).error_percent == Approx(100.0));
  // 11 tiles: two waves, 11 of 20 slots busy -> 25 x 0.55 = 13.75.
  CHECK(predicted_tflops(gemm(1, 1408, 128, 1024, 50), acc) == Approx(13.75));
  // Batch counts tiles: 2 x 5 tiles fill the wave again.
  CHECK(predicted_tflops(gemm(2, 640, 128, 1024, 50), acc) == Approx(25.0));
  // 1 us per kernel on top: 2 x 1280 x 128 x 1024 FLOP = 335,544,320 at 25 TFLOP/s = 13.42 us, + 1 us.
  AcceleratorSpec launch = acc;
  launch.kernel_overhead = 1e-6;
  const double flops = gemm_flops(1, 1280, 128, 1024);
  CHECK(predicted_tflops(gemm(1, 1280, 128, 1024, 50), launch) == Approx(flops / (flops / 25e12 + 1e-6) / 1e12));
}

TEST_CASE("a grouped GEMM launched per expert pays one overhead per launch and fills waves per launch", "[validate]") {
  AcceleratorSpec acc = toy_accelerator();
  acc.kernel_overhead = 1e-6;
  // 2 experts of 640 x 128 x 1024: 2 x 167,772,160 FLOP. As one kernel: 2 x 5 = 10 tiles fill the one
  // wave, 100 x 0.5 x depth 1/2 = 25 TFLOP/s: 13.42 us + 1 us. As two launches of 5 tiles each, half the
  // wave idles: 12.5 TFLOP/s, 26.84 us + 2 us.
  KernelMeasurement g = gemm(2, 640, 128, 1024, 1);
  const double flops = gemm_flops(2, 640, 128, 1024);
  CHECK(predict_kernel(g, acc, Precision::kBf16).predicted_s == Approx(flops / 25e12 + 1e-6));
  g.launches = 2;
  CHECK(predict_kernel(g, acc, Precision::kBf16).predicted_s == Approx(flops / 12.5e12 + 2e-6));
}

TEST_CASE("a measured attention pass is timed as the catalogue's causal flash kernel, worked by hand", "[validate]") {
  const AcceleratorSpec acc = toy_accelerator();
  // 2 heads x 1024 tokens x 64: QK^T + PV = 4 x 1024^2 x 64 x 2 = 536,870,912 FLOP, causal half
  // 268,435,456, at 100 TFLOP/s x 0.5 = 5.3687 us at full rate. Its 2 x 1024 / 128 = 16 query tiles
  // attend 512 keys on average, the last 1024; on 10 units the tail adds 10 x 1024 / (16 x 512) = 1.25
  // of that: 5.3687 x 2.25 = 12.080 us. The backward does 2.5 times the work: 30.20 us.
  const KernelRowResult fwd = predict_kernel(attention(2, 1024, 64, false, 10.737e-6), acc, Precision::kBf16);
  CHECK(fwd.kernel.flops == Approx(268435456.0));
  CHECK(fwd.kernel.attention_tiles == Approx(16));
  CHECK(fwd.kernel.attention_max_keys == Approx(1024));
  CHECK(fwd.predicted_s == Approx(12.0796e-6).epsilon(1e-4));
  CHECK(fwd.error_percent == Approx(12.504).margin(0.01));
  CHECK(predict_kernel(attention(2, 1024, 64, true, 1), acc, Precision::kBf16).predicted_s ==
        Approx(2.5 * 12.0796e-6).epsilon(1e-4));
}

TEST_CASE("fused attention's tail shrinks as tiles outnumber the units; the backward has its own rate", "[validate]") {
  AcceleratorSpec acc = toy_accelerator();
  // 32 heads x 1024 tokens: 256 tiles on 10 units, tail 10 x 1024 / (256 x 512) = 0.078: 16 x 5.3687 us
  // x 1.078 = 92.60 us. A 512-key overhead per tile: (512 + 512) / 512 = 2 at full rate, tail
  // 10 x (1024 + 512) / (256 x 512) = 0.117: 85.90 x 2.117 = 181.9 us.
  CHECK(predict_kernel(attention(32, 1024, 64, false, 1), acc, Precision::kBf16).predicted_s ==
        Approx(16 * 5.36871e-6 * 1.078125).epsilon(1e-4));
  acc.attention_k_overhead = 512;
  CHECK(predict_kernel(attention(32, 1024, 64, false, 1), acc, Precision::kBf16).predicted_s ==
        Approx(16 * 5.36871e-6 * (2 + 10.0 * 1536 / (256 * 512))).epsilon(1e-4));
  // The backward at half the forward's level takes twice as long per FLOP; the forward is unchanged.
  acc.attention_k_overhead = 0;
  acc.attention_backward_efficiency = 0.25;
  CHECK(predict_kernel(attention(32, 1024, 64, true, 1), acc, Precision::kBf16).predicted_s ==
        Approx(2 * 2.5 * 16 * 5.36871e-6 * 1.078125).epsilon(1e-4));
  CHECK(predict_kernel(attention(32, 1024, 64, false, 1), acc, Precision::kBf16).predicted_s ==
        Approx(16 * 5.36871e-6 * 1.078125).epsilon(1e-4));
}

TEST_CASE("a measured windowed GQA attention pass is timed over the key blocks its window spans", "[validate]") {
  const AcceleratorSpec acc = toy_accelerator();
  // 2 heads x 1024 tokens x 64 with window (255, 0): 256 keys with the query's own, two blocks back plus
  // the diagonal, 384 keys; the first two of the 8 query blocks span 1 and 2: (1 + 2 + 6 x 3) / 8 x 128 =
  // 336 keys on average. 536,870,912 x 336 / 1024 = 176,160,768 FLOP at 50 TFLOP/s = 3.5232 us; tail
  // 10 x 384 / (16 x 336) = 0.7143: 3.5232 x 1.7143 = 6.0398 us.
  KernelMeasurement w = attention(2, 1024, 64, false, 1);
  w.attention.window = 255;
  const KernelRowResult r = predict_kernel(w, acc, Precision::kBf16);
  CHECK(r.kernel.attention_keys == Approx(336));
  CHECK(r.kernel.attention_max_keys == Approx(384));
  CHECK(r.kernel.flops == Approx(176160768.0));
  CHECK(r.predicted_s == Approx(6.0398e-6).epsilon(1e-4));
  // One key/value head instead of two reads half the K and V: 2 x 1024 x 64 bf16 elements, 262,144 bytes.
  KernelMeasurement gqa = w;
  gqa.attention.kv_heads = 1;
  CHECK(r.kernel.bytes - predict_kernel(gqa, acc, Precision::kBf16).kernel.bytes == Approx(262144));
}

TEST_CASE("a measured stream is its bytes at the effective HBM rate plus one overhead per launch", "[validate]") {
  AcceleratorSpec acc = toy_accelerator();
  acc.memory_bandwidth = 1e12;
  acc.memory_efficiency = 0.5;
  acc.kernel_overhead = 1e-6;
  // 1 GB at 0.5 TB/s = 2000 us, + 3 launches x 1 us.
  const KernelRowResult r = predict_kernel(stream(1e9, 3, 2003e-6), acc, Precision::kBf16);
  CHECK(r.predicted_s == Approx(2003e-6));
  CHECK(r.error_percent == Approx(0.0).margin(1e-9));
}

TEST_CASE("fitting a table made by the model recovers the parameters that made it", "[validate]") {
  AcceleratorSpec truth = hopper_like(0.8, 200, 5e-6);
  truth.attention_efficiency = 0.45;
  truth.memory_efficiency = 0.8;
  KernelMeasurementSet set;
  set.accelerator = truth.name;
  auto add = [&](KernelMeasurement m) {
    m.measured_s = predict_kernel(m, truth, Precision::kBf16).predicted_s;
    set.rows.push_back(m);
  };
  for (int64_t batch : {1, 4})
    for (int64_t mn : {2048, 4096})
      for (int64_t k : {256, 512, 1024, 2048, 4096}) add(gemm(batch, mn, 4096, k, 1));
  for (int64_t heads : {8, 16}) add(attention(heads, 4096, 128, heads == 16, 1));
  for (double bytes : {16e6, 256e6, 2e9}) add(stream(bytes, 1, 1));
  AcceleratorSpec start = hopper_like(0.6, 64, 2e-6);
  start.attention_efficiency = 0.6;
  start.memory_efficiency = 0.9;
  const KernelFit fit = fit_kernel_parameters(
      set, start, {"gemm_efficiency", "gemm_k_overhead", "kernel_overhead", "attention_efficiency", "memory_efficiency"},
      3000);
  REQUIRE(fit.values.size() == 5);
  CHECK(fit.values[0].second == Approx(0.8).epsilon(0.005));
  CHECK(fit.values[1].second == Approx(200).margin(3));
  CHECK(fit.values[2].second == Approx(5.0).margin(0.1));  // microseconds
  CHECK(fit.values[3].second == Approx(0.45).epsilon(0.005));
  CHECK(fit.values[4].second == Approx(0.8).epsilon(0.005));
  CHECK(fit.fitted.kernel_overhead == Approx(fit.values[2].second * 1e-6));
  CHECK(max_abs_error(fit.rows) < 0.5);
  CHECK(fit.evaluations <= 3000);
}

TEST_CASE("a kernel fit refuses no parameter, an unknown one and one given twice", "[validate]") {
  KernelMeasurementSet set;
  set.rows.push_back(gemm(1, 4096, 4096, 4096, 700));
  const AcceleratorSpec acc = hopper_like(0.8, 64, 3e-6);
  CHECK_THROWS_AS(fit_kernel_parameters(set, acc, {}, 100), UserError);
  CHECK_THROWS_WITH(fit_kernel_parameters(set, acc, {"peak_flops"}, 100), Catch::Contains("gemm_k_overhead"));
  CHECK_THROWS_WITH(fit_kernel_parameters(set, acc, {"gemm_efficiency", "gemm_efficiency"}, 100),
                    Catch::Contains("twice"));
}

TEST_CASE("a kernel table loads strictly: unknown keys, sizes, passes and times are checked", "[validate][config]") {
  CHECK(load_error("gemms:\n  - {batch: 2, m: 64, n: 64, k: 64, tflops: 1.5}\n") == "no error");
  CHECK_THAT(load_error("gemms:\n  - {m: 64, n: 64, k: 64, tflop: 1.5}\n"), Catch::Contains("tflop"));
  CHECK_THAT(load_error("gemms:\n  - {m: 0, n: 64, k: 64, tflops: 1.5}\n"), Catch::Contains("gemms.0.m"));
  CHECK(load_error("gemms:\n  - {batch: 16, m: 64, n: 64, k: 64, kernels: 16, tflops: 1.5}\n") == "no error");
  CHECK_THAT(load_error("gemms:\n  - {batch: 16, m: 64, n: 64, k: 64, kernels: 3, tflops: 1.5}\n"),
             Catch::Contains("a divisor of 16"));
  CHECK_THAT(load_error("gemms:\n  - {m: 64, n: 64, k: 64, tflops: -1}\n"), Catch::Contains("tflops"));
  const std::string attention_ok = "{pass: bwd, heads: 8, seq: 4096, head_dim: 128, causal: true, us: 250}";
  CHECK(load_error("attention:\n  - " + attention_ok + "\n") == "no error");
  CHECK_THAT(load_error("attention:\n  - {pass: both, heads: 8, seq: 4096, head_dim: 128, causal: true, us: 250}\n"),
             Catch::Contains("attention.0.pass"));
  CHECK_THAT(load_error("attention:\n  - {pass: fwd, heads: 8, seq: 4096, head_dim: 128, causal: false, us: 250}\n"),
             Catch::Contains("causal"));
  CHECK(load_error("attention:\n  - {pass: fwd, heads: 8, kv_heads: 2, seq: 4096, head_dim: 64, window: 128, "
                   "causal: true, us: 90}\n") == "no error");
  CHECK_THAT(load_error("attention:\n  - {pass: fwd, heads: 8, kv_heads: 3, seq: 4096, head_dim: 64, causal: true, "
                        "us: 90}\n"),
             Catch::Contains("attention.0.kv_heads") && Catch::Contains("a divisor of 8"));
  CHECK_THAT(load_error("attention:\n  - {pass: fwd, heads: 8, seq: 4096, head_dim: 64, window: 0, causal: true, "
                        "us: 90}\n"),
             Catch::Contains("attention.0.window"));
  CHECK(load_error("streams:\n  - {op: gelu.fwd, bytes: 1000000, us: 5, kernels: 2}\n") == "no error");
  CHECK_THAT(load_error("streams:\n  - {op: gelu.fwd, us: 5}\n"), Catch::Contains("streams.0.bytes"));
  CHECK_THAT(load_error("streams:\n  - {op: gelu.fwd, bytes: 1000, us: 5, kernels: 0}\n"), Catch::Contains("kernels"));
  CHECK_THAT(load_error("description: nothing measured\n"), Catch::Contains("at least one entry"));
  const fs::path bad_precision = scratch_file("p.yaml", "accelerator: toy\nprecision: int4\nsource: s\ngemms:\n"
                                                        "  - {m: 64, n: 64, k: 64, tflops: 1}\n");
  CHECK_THROWS_WITH(load_kernel_measurements(bad_precision), Catch::Contains("int4"));
}

namespace {

KernelMeasurementSet h100_tables(const std::vector<std::string>& names) {
  KernelMeasurementSet all;
  for (const auto& name : names) {
    const KernelMeasurementSet set = load_kernel_measurements(data_dir() / "validation/kernels" / name);
    if (all.rows.empty()) all = set;
    else all.rows.insert(all.rows.end(), set.rows.begin(), set.rows.end());
  }
  return all;
}

// The isolated level of the H100's GEMMs, fitted to its GEMM tables (see the next test case); a training
// step's GEMMs keep gemm_efficiency / kIsolatedGemm of it, and the preset takes attention at that ratio too.
constexpr double kIsolatedGemm = 0.7427;

// Refits `params` from the preset's own values; each must come back where the preset has it: the
// preset's kernel parameters are what `trainsim kernels --fit` gives on its tables, the attention
// efficiencies times the in-training ratio of its GEMMs.
void check_preset_refits(const std::vector<std::string>& tables, const std::vector<std::string>& params) {
  const AcceleratorSpec preset = load_platform("dgx-h100-superpod").accelerator;
  const double in_training = preset.gemm_efficiency / kIsolatedGemm;
  const KernelFit fit = fit_kernel_parameters(h100_tables(tables), preset, params, 600);
  for (const auto& [name, value] : fit.values) {
    INFO(name);
    const bool attention_level = name == "attention_efficiency" || name == "attention_backward_efficiency";
    CHECK(value * (attention_level ? in_training : 1.0) == Approx(get_parameter(preset, name)).epsilon(0.01));
  }
}

}  // namespace

TEST_CASE("the H100 preset's GEMM shape terms reproduce both measured H100 GEMM tables", "[validate]") {
  // gemm_k_overhead and kernel_overhead were fitted to the two tables together with an isolated-GEMM
  // efficiency of 0.7427 (the preset's own gemm_efficiency is the in-training level). At that
  // efficiency each table is met within its share of the fit: XLA 6.2% / 12.6%, ours 4.9% / 11.7%.
  constexpr double kIsolated = kIsolatedGemm;
  AcceleratorSpec acc = load_platform("dgx-h100-superpod").accelerator;
  acc.gemm_efficiency = kIsolated;
  const KernelMeasurementSet xla = h100_tables({"h100-sxm-bf16-gemm.yaml"});
  REQUIRE(xla.rows.size() == 95);
  REQUIRE(acc.name == xla.accelerator);
  CHECK(mean_abs_error(predict_kernels(xla, acc)) < 6.5);
  CHECK(max_abs_error(predict_kernels(xla, acc)) < 13.0);
  const KernelMeasurementSet ours = h100_tables({"h100-sxm-training-gemm.yaml"});
  REQUIRE(ours.rows.size() == 123);
  CHECK(mean_abs_error(predict_kernels(ours, acc)) < 5.5);
  CHECK(max_abs_error(predict_kernels(ours, acc)) < 12.0);
  // The three GEMM terms refitted together from there come back.
  const KernelFit fit = fit_kernel_parameters(h100_tables({"h100-sxm-training-gemm.yaml", "h100-sxm-bf16-gemm.yaml"}),
                                              acc, {"gemm_efficiency", "gemm_k_overhead", "kernel_overhead"}, 3000);
  CHECK(fit.values[0].second == Approx(kIsolated).epsilon(0.005));
  CHECK(fit.values[1].second == Approx(acc.gemm_k_overhead).epsilon(0.02));
  CHECK(fit.values[2].second == Approx(acc.kernel_overhead * 1e6).epsilon(0.02));
}

TEST_CASE("the H100 preset's attention and memory efficiencies are the fits to its measured tables", "[validate]") {
  const std::vector<std::string> attention = {"h100-sxm-attention-cudnn.yaml", "h100-sxm-attention-cudnn-grid.yaml",
                                              "h100-sxm-attention-cudnn-batch.yaml",
                                              "h100-sxm-attention-cudnn-dropout0.1.yaml",
                                              "h100-sxm-attention-cudnn-grid-dropout0.1.yaml"};
  check_preset_refits(attention, {"attention_efficiency", "attention_backward_efficiency", "attention_k_overhead",
                                  "dropout_rng_rate"});
  check_preset_refits({"h100-sxm-streams.yaml"}, {"memory_efficiency"});
  // And at the isolated level the model meets the 72 attention passes (10.0% mean, 36.2% max: one
  // sequence of 8 heads at seq 2048). Without the per-tile cost in keys the longest sequences would be
  // predicted far too slow; without the last tiles' tail, one sequence of few heads far too fast.
  AcceleratorSpec isolated = load_platform("dgx-h100-superpod").accelerator;
  const double in_training = isolated.gemm_efficiency / kIsolatedGemm;
  isolated.attention_efficiency /= in_training;
  isolated.attention_backward_efficiency /= in_training;
  const std::vector<KernelRowResult> rows = predict_kernels(h100_tables(attention), isolated);
  CHECK(rows.size() == 72);
  CHECK(mean_abs_error(rows) < 10.5);
  CHECK(max_abs_error(rows) < 37.0);
}

TEST_CASE("cuDNN's sliding-window passes on an H100 keep the model's ratio to full causal attention", "[validate]") {
  // validation/kernels/h100-sxm-attention-window.yaml times each shape at full causal and at windows of
  // 128-2048 keys (4096 tokens). The level of head_dim 64 is the model's known miss (its passes run
  // 20-35% slower per FLOP than head_dim 128's, with or without a window), so each windowed pass is
  // compared with the full pass of its shape: predicted window / full against measured: 6.9% apart on
  // average, 21.5% at most (head_dim 128's forward at 128 keys). Before the first query blocks' shorter
  // spans were counted, 8.5% on average.
  const AcceleratorSpec acc = load_platform("dgx-h100-superpod").accelerator;
  const std::vector<KernelRowResult> rows = predict_kernels(h100_tables({"h100-sxm-attention-window.yaml"}), acc);
  REQUIRE(rows.size() == 22);
  std::map<std::string, const KernelRowResult*> full;  // by pass and shape
  auto key = [](const AttentionShape& a) {
    return std::to_string(a.backward) + "/" + std::to_string(a.heads) + "/" + std::to_string(a.head_dim);
  };
  for (const auto& r : rows)
    if (r.measurement.attention.window == 0) full[key(r.measurement.attention)] = &r;
  REQUIRE(full.size() == 4);
  double sum = 0, worst = 0;
  int windowed = 0;
  for (const auto& r : rows) {
    if (r.measurement.attention.window == 0) continue;
    const KernelRowResult& f = *full.at(key(r.measurement.attention));
    const double ratio_error = (r.predicted_s / f.predicted_s) / (r.measurement.measured_s / f.measurement.measured_s) - 1;
    INFO(measurement_label(r.measurement) << ": " << ratio_error);
    sum += std::fabs(ratio_error);
    worst = std::max(worst, std::fabs(ratio_error));
    ++windowed;
  }
  CHECK(windowed == 18);
  CHECK(sum / windowed < 0.08);
  CHECK(worst < 0.25);
}
