// The validation harness through the real pipeline (load -> memory -> task graphs -> SimGrid replay in a
// child process -> metrics) on the two smallest published rows: k22-22b-full (8 A100, dp 1) and
// ms-llama2-7b (8 Ascend 910B, dp 4, folded to one data-parallel replica). Each takes well under a second.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/validate/calibrate.hpp"
#include "sim/validate/validation_run.hpp"

using namespace trainsim;

namespace {

const MeasurementSet& published() {
  static const MeasurementSet set = load_measurements(data_dir() / "validation" / "measurements.yaml");
  return set;
}

std::vector<RowResult> smallest_rows(int jobs) {
  ValidationOptions o;
  o.jobs = jobs;
  return validate_measurements(select_measurements(published(), {"k22-22b-full", "ms-llama2-7b"}, std::nullopt), o);
}

// A one-row measurement set: `run` (a 910B run) measured at `seconds` per iteration, split calibrate.
MeasurementSet synthetic_calibrate_row(const std::filesystem::path& run, double seconds) {
  MeasurementSet set;
  set.file = "synthetic";
  Measurement m;
  m.id = "synthetic";
  m.run = run;
  m.split = Split::kCalibrate;
  m.hardware = "ascend-910b-pod";
  m.metric = MeasuredMetric::kIterationSeconds;
  m.value = seconds;
  set.rows = {m};
  return set;
}

}  // namespace

TEST_CASE("validate runs each selected row through the pipeline and compares seconds per iteration",
          "[validate]") {
  const auto rows = smallest_rows(1);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].measurement.id == "k22-22b-full");  // file order is kept
  CHECK(rows[0].measured_time == 1.42);             // Korthikanti Table 5, seconds as published
  CHECK(rows[1].measured_time == Approx(28.0548).epsilon(1e-5));  // 256 x 4096 / (4672 x 8), see measured_time_test
  for (const auto& r : rows) {
    INFO(r.measurement.id);
    CHECK(std::isfinite(r.prediction.iteration_time));
    CHECK(r.prediction.iteration_time > 0);
    CHECK(r.error_percent == Approx((r.prediction.iteration_time - r.measured_time) / r.measured_time * 100));
    CHECK(r.prediction.peak_memory > 0);
    CHECK(r.prediction.peak_memory <= r.prediction.memory_capacity);  // both runs fit (trainsim check says so)
    // The breakdown crosses the process boundary intact: its categories add up to the iteration.
    double sum = 0;
    for (Seconds t : r.prediction.breakdown) sum += t;
    CHECK(sum == Approx(r.prediction.iteration_time).epsilon(1e-6));
  }
  // Full recompute: k22-22b-full re-runs every layer's forward; ms-llama2-7b (pp 2) waits in a bubble.
  CHECK(rows[0].prediction.breakdown[static_cast<size_t>(TimeCategory::kRecompute)] > 0);
  CHECK(rows[1].prediction.breakdown[static_cast<size_t>(TimeCategory::kBubble)] > 0);
  // k22-22b-full (tp 8, dp 1): the 8 TP ranks fold to rank 0: 1 device replayed.
  // ms-llama2-7b (tp 1, pp 2, dp 4) folds to one replica: tp 1 x pp 2 = 2 devices.
  CHECK(rows[0].prediction.folded);
  CHECK(rows[0].prediction.devices_replayed == 1);
  CHECK(rows[1].prediction.folded);
  CHECK(rows[1].prediction.devices_replayed == 2);
}

TEST_CASE("simulating rows two at a time gives the same predictions as one at a time", "[validate]") {
  const auto one = smallest_rows(1);
  const auto two = smallest_rows(2);
  REQUIRE(two.size() == one.size());
  for (size_t i = 0; i < one.size(); ++i) {
    CHECK(two[i].measurement.id == one[i].measurement.id);
    CHECK(two[i].prediction.iteration_time == one[i].prediction.iteration_time);
  }
}

// Targets of issue 5 for check rows: mean |error| <= 5 %, maximum <= 10 %. The two 8-GPU
// Korthikanti rows (check split: they never set a parameter) replay in well under a second;
// with the calibrated A100 preset they are at +4.4 % and +1.0 % (validation/REPORT.md), so this
// fails only if a change moves them past the bounds.
TEST_CASE("the 8-GPU Korthikanti check rows are predicted within 10%, 5% on average", "[validate]") {
  const auto rows = validate_measurements(
      select_measurements(published(), {"k22-22b-full", "k22-22b-present"}, std::nullopt), {});
  REQUIRE(rows.size() == 2);
  for (const auto& r : rows) {
    INFO(r.measurement.id << ": predicted " << r.prediction.iteration_time << " s, measured " << r.measured_time
                          << " s, error " << r.error_percent << " %");
    CHECK(std::fabs(r.error_percent) <= 10.0);
  }
  CHECK((std::fabs(rows[0].error_percent) + std::fabs(rows[1].error_percent)) / 2 <= 5.0);
}

TEST_CASE("a run whose platform is not the row's hardware is bad input", "[validate]") {
  auto rows = select_measurements(published(), {"k22-22b-full"}, std::nullopt);
  rows[0].hardware = "dgx-h100-superpod";
  CHECK_THROWS_WITH(validate_measurements(rows, {}), Catch::Contains("platform 'dgx-a100-superpod'"));
  CHECK_THROWS_AS(select_measurements(published(), {"no-such-row"}, std::nullopt), UserError);
}

TEST_CASE("calibration recovers the efficiency that produced a synthetic measurement", "[validate]") {
  // Make a measurement by simulating ms-llama2-7b with gemm_efficiency 0.6; calibrating gemm_efficiency
  // against it must find 0.6 again. Predicted time falls monotonically as the efficiency rises, so the
  // squared relative error is unimodal, and 12 golden-section evaluations leave a bracket of
  // 0.7 x 0.618^10 = 0.0057 around the minimum (see golden_section_test).
  const auto run = data_dir() / "validation" / "runs" / "ms-llama2-7b.yaml";
  const double target = predict_row(run, {parameter_override("gemm_efficiency", 0.6)}).iteration_time;
  const MeasurementSet set = synthetic_calibrate_row(run, target);
  CalibrationOptions o;
  o.platform = "ascend-910b-pod";
  const CalibrationResult r = calibrate_parameter(set, o);
  CHECK(r.search.evaluations.size() == 12);
  CHECK(std::fabs(r.search.best_x - 0.6) < 0.0057);
  REQUIRE(r.best_rows.size() == 1);
  CHECK(std::fabs(r.best_rows[0].error_percent) < 1.0);
}

TEST_CASE("joint calibration reports the rows at the pair of values it fitted", "[validate]") {
  // One synthetic row (ms-llama2-7b simulated with gemm_efficiency 0.6), two parameters fitted
  // together in 12 evaluations. The rows it reports must be the prediction at the reported pair
  // (re-simulated here), and fit the synthetic measurement closely: the preset's memory_efficiency
  // with gemm_efficiency 0.6 is one exact solution, so a good point exists inside the box.
  const auto run = data_dir() / "validation" / "runs" / "ms-llama2-7b.yaml";
  const MeasurementSet set =
      synthetic_calibrate_row(run, predict_row(run, {parameter_override("gemm_efficiency", 0.6)}).iteration_time);
  CalibrationOptions o;
  o.platform = "ascend-910b-pod";
  const JointCalibrationResult r = calibrate_parameters(set, o, {"memory_efficiency", "gemm_efficiency"}, 12);
  REQUIRE(r.values.size() == 2);
  CHECK(r.values[0].first == "memory_efficiency");
  CHECK(r.values[1].first == "gemm_efficiency");
  CHECK(r.search.evaluations.size() == 12);
  REQUIRE(r.best_rows.size() == 1);
  const double again = predict_row(run, {parameter_override("memory_efficiency", r.values[0].second),
                                         parameter_override("gemm_efficiency", r.values[1].second)})
                           .iteration_time;
  CHECK(r.best_rows[0].prediction.iteration_time == Approx(again).epsilon(1e-9));
  CHECK(std::fabs(r.best_rows[0].error_percent) < 2.0);
}

TEST_CASE("calibration refuses parameters it cannot fit and platforms without calibrate rows",
          "[validate]") {
  CalibrationOptions o;
  o.platform = "ascend-910b-pod";
  o.param = "compute_units";  // an integer hardware fact, not a fitted quantity
  CHECK_THROWS_WITH(calibrate_parameter(published(), o), Catch::Contains("gemm_efficiency"));
  o.param = "gemm_efficiency";
  o.platform = "cloudmatrix384";
  CHECK_THROWS_WITH(calibrate_parameter(published(), o),
                    Catch::Contains("ascend-910b-pod") && Catch::Contains("dgx-a100-superpod"));
  CHECK(parameter_override("gemm_efficiency", 0.8125) == "platform.accelerator.gemm_efficiency=0.8125");
  CHECK(parameter_override("kernel_overhead", 12.5) == "platform.accelerator.kernel_overhead=12.5us");
}
