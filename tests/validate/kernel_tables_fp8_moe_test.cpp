// The H100 preset's kernel model against the FP8 and MoE kernels measured on one H100
// (validation/kernels/h100-sxm-fp8-*.yaml, h100-sxm-moe-*.yaml; validation/kernels/measure.py).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/config/kernel_measurements.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/presets.hpp"
#include "sim/validate/accelerator_params.hpp"
#include "sim/validate/error_stats.hpp"
#include "sim/validate/kernel_fit.hpp"

using namespace trainsim;

namespace {

// The isolated (not in-training) GEMM levels: bf16 fitted to the two bf16 GEMM tables (see
// kernel_fit_test.cpp), FP8 fitted to h100-sxm-fp8-gemm.yaml as the preset's comment says.
constexpr double kIsolatedBf16 = 0.7427;
constexpr double kIsolatedFp8 = 0.6462;

KernelMeasurementSet table(const std::string& name) {
  return load_kernel_measurements(data_dir() / "validation/kernels" / name);
}

AcceleratorSpec isolated_h100() {
  AcceleratorSpec acc = load_platform("dgx-h100-superpod").accelerator;
  acc.gemm_efficiency = kIsolatedBf16;
  acc.fp8_gemm_efficiency = kIsolatedFp8;
  return acc;
}

// Mean and largest |error %| over the rows, or over those of stream op `op`.
ErrorSummary errors(const std::vector<KernelRowResult>& rows, const std::string& op = "") {
  std::vector<std::pair<std::string, double>> labelled;
  for (const auto& r : rows)
    if (op.empty() || r.measurement.op == op) labelled.emplace_back(r.measurement.op, r.error_percent);
  return summarize_errors(labelled);
}

}  // namespace

TEST_CASE("FP8 GEMMs measured on an H100 fit an isolated FP8 level of 0.6462, 0.87 of the bf16 one", "[validate]") {
  const KernelMeasurementSet fp8 = table("h100-sxm-fp8-gemm.yaml");
  REQUIRE(fp8.precision == Precision::kFp8);
  REQUIRE(fp8.rows.size() == 153);
  AcceleratorSpec acc = isolated_h100();
  const KernelFit fit = fit_kernel_parameters(fp8, acc, {"fp8_gemm_efficiency"}, 600);
  CHECK(fit.values[0].second == Approx(kIsolatedFp8).epsilon(0.005));
  const ErrorSummary e = errors(predict_kernels(fp8, acc));
  CHECK(e.mean_abs_percent < 4.0);   // 3.9% with the bf16 tables' k overhead and launch cost, nothing FP8-specific
  CHECK(e.max_abs_percent < 14.5);   // 14.0%: 4096 x 2048 x 131072, the vocabulary wgrad
  // Not the 2x of the peaks: the measured ratio of the fitted levels.
  CHECK(kIsolatedFp8 / kIsolatedBf16 == Approx(0.870).margin(0.001));
}

TEST_CASE("expert GEMMs launched one per expert meet the dense GEMM model within 9% on average", "[validate]") {
  // 16 local experts, 256 to 8192 tokens each (the rows run 4096): the dense k overhead and one launch
  // cost per expert leave the small-batch loss to the tile fill. bf16: 8.2% mean at the isolated level,
  // 22% worst (qwen3's fc1, 1,024 tokens); FP8: 20% mean, 53% worst (256 tokens of qwen3's 768-wide fc2,
  // where cuBLASLt's FP8 kernel is slower than the bf16 one).
  const AcceleratorSpec acc = isolated_h100();
  const ErrorSummary bf16 = errors(predict_kernels(table("h100-sxm-moe-gemm.yaml"), acc));
  CHECK(bf16.mean_abs_percent < 9.0);
  CHECK(bf16.max_abs_percent < 23.0);
  const ErrorSummary fp8 = errors(predict_kernels(table("h100-sxm-moe-fp8-gemm.yaml"), acc));
  CHECK(fp8.mean_abs_percent < 21.0);
  CHECK(fp8.max_abs_percent < 54.0);
}

TEST_CASE("FP8 cast kernels run at the preset's streaming rate; amax reductions do not", "[validate]") {
  // memory_efficiency was fitted to bf16 streams (h100-sxm-streams.yaml); the quantization kernels move
  // the bytes sim/model/fp8_quantize.hpp charges and meet it within 5% on average, the amax pass 19%.
  const AcceleratorSpec acc = load_platform("dgx-h100-superpod").accelerator;
  const std::vector<KernelRowResult> rows = predict_kernels(table("h100-sxm-fp8-casts.yaml"), acc);
  REQUIRE(rows.size() == 24);
  for (const char* op : {"fp8_cast", "fp8_cast_transpose", "fp8_transpose"}) {
    INFO(op);
    CHECK(errors(rows, op).mean_abs_percent < 5.0);
    CHECK(errors(rows, op).max_abs_percent < 8.0);
  }
  CHECK(errors(rows, "fp8_amax").mean_abs_percent > 15.0);  // a reduction: 1.1-2.4 TB/s measured
}
