// Converting published metrics into seconds per iteration.
#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "sim/validate/measured_time.hpp"

using namespace trainsim;

namespace {

RunSpec run_of(const std::string& id) { return load_run(data_dir() / "validation" / "runs" / (id + ".yaml")); }

Measurement measurement(MeasuredMetric metric, double value, FlopsFormula formula = FlopsFormula::kNone) {
  Measurement m;
  m.metric = metric;
  m.value = value;
  m.flops_formula = formula;
  return m;
}

}  // namespace

TEST_CASE("TFLOP/s per device becomes seconds as F / (tflops x 1e12 x devices)", "[validate]") {
  // 1e15 FLOP over 10 devices at 100 TFLOP/s each = 1e15 / 1e15 FLOP/s = 1 s.
  CHECK(seconds_from_tflops(1e15, 100, 10) == Approx(1.0));
}

TEST_CASE("tokens/s per device becomes seconds as global batch x seq / (value x devices)", "[validate]") {
  // ms-llama2-7b: 256 sequences x 4096 tokens / (4672 tokens/s x 8 NPUs) = 1048576 / 37376 = 28.0548 s.
  CHECK(seconds_from_tokens(256, 4096, 4672, 8) == Approx(28.0548).epsilon(1e-5));
  const RunSpec run = run_of("ms-llama2-7b");
  CHECK(measured_iteration_seconds(measurement(MeasuredMetric::kTokensPerSecondPerDevice, 4672), run) ==
        Approx(28.0548).epsilon(1e-5));
}

TEST_CASE("sc21-1.7b: 137 TFLOP/s with the full-recompute (96) formula is 3.528 s per iteration", "[validate]") {
  // Narayanan et al. SC'21 eq. 3 with B 512, s 2048, l 24, h 2304, V 51200:
  //   96 x 512 x 2048 x 24 x 2304^2 = 1.2824704e16
  //   1 + s/(6h) + V/(16 l h) = 1 + 2048/13824 + 51200/884736 = 1 + 0.1481481 + 0.0578704 = 1.2060185
  //   F = 1.2824704e16 x 1.2060185 = 1.5466830e16 FLOP per iteration
  //   t = F / (137e12 x 32 GPUs) = 1.5466830e16 / 4.384e15 = 3.52802 s
  const RunSpec run = run_of("sc21-1.7b");
  CHECK(formula_flops(FlopsFormula::kMegatronFullRecompute, run) == Approx(1.5466830e16).epsilon(1e-7));
  const auto m = measurement(MeasuredMetric::kTflopsPerDevice, 137, FlopsFormula::kMegatronFullRecompute);
  CHECK(measured_iteration_seconds(m, run) == Approx(3.52802).epsilon(1e-5));
}

TEST_CASE("mlm-h100-1.7b: 408.8 TFLOP/s with the no-recompute (72) formula is 0.4519 s per iteration",
          "[validate]") {
  // Korthikanti et al. 2022 formula with B 192, s 4096, l 24, h 2048, V 131072:
  //   72 x 192 x 4096 x 24 x 2048^2 = 5.6998683e15
  //   1 + s/(6h) + V/(12 l h) = 1 + 4096/12288 + 131072/589824 = 1 + 1/3 + 2/9 = 1.5555556
  //   F = 5.6998683e15 x 1.5555556 = 8.8664618e15 FLOP
  //   t = F / (408.8e12 x 48 GPUs) = 8.8664618e15 / 1.96224e16 = 0.451854 s
  const RunSpec run = run_of("mlm-h100-1.7b");
  CHECK(formula_flops(FlopsFormula::kMegatronNoRecompute, run) == Approx(8.8664618e15).epsilon(1e-7));
  const auto m = measurement(MeasuredMetric::kTflopsPerDevice, 408.8, FlopsFormula::kMegatronNoRecompute);
  CHECK(measured_iteration_seconds(m, run) == Approx(0.451854).epsilon(1e-5));
}

TEST_CASE("seconds per iteration are taken as measured", "[validate]") {
  CHECK(measured_iteration_seconds(measurement(MeasuredMetric::kIterationSeconds, 1.42), run_of("k22-22b-full")) ==
        1.42);
}

TEST_CASE("mlm-recipe-qwen3-30b-a3b: 234.1 TFLOP/s by Megatron-LM's own count is 3.2203 s per iteration",
          "[validate]") {
  // 23,006,281,728 FLOP per token (tests/model/model_flops_test.cpp works it out) x 256 x 4096 tokens
  //   = 2.41238e16 FLOP per iteration; / (234.1e12 x 32 GPUs) = 3.22029 s.
  const RunSpec run = run_of("mlm-recipe-qwen3-30b-a3b");
  CHECK(formula_flops(FlopsFormula::kMegatronLm, run) == Approx(256.0 * 4096 * 23006281728.0).epsilon(1e-12));
  const auto m = measurement(MeasuredMetric::kTflopsPerDevice, 234.1, FlopsFormula::kMegatronLm);
  CHECK(measured_iteration_seconds(m, run) == Approx(3.22029).epsilon(1e-5));
}
