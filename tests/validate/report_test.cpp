// The validation and kernel reports' renderings, on hand-made results.
#include <catch2/catch.hpp>
#include <sstream>

#include "sim/validate/gnuplot_plot.hpp"
#include "sim/validate/kernel_report.hpp"
#include "sim/validate/text_format.hpp"
#include "sim/validate/validation_report.hpp"
#include "sim/validate/validation_run.hpp"

using namespace trainsim;

namespace {

RowResult row(const std::string& id, Split split, const std::string& hw, double measured, double predicted) {
  RowResult r;
  r.measurement.id = id;
  r.measurement.split = split;
  r.measurement.hardware = hw;
  r.measurement.metric = MeasuredMetric::kIterationSeconds;
  r.measurement.value = measured;
  r.devices = 8;
  r.measured_time = measured;
  r.prediction.iteration_time = predicted;
  r.prediction.peak_memory = 40.0 * (1 << 30);      // 40 GiB
  r.prediction.memory_capacity = 80.0 * (1 << 30);  // 80 GiB
  r.error_percent = percent_error(predicted, measured);
  return r;
}

// Two check rows on A100 (+10 %, -30 %) and one calibrate row on 910B (+5 %).
std::vector<RowResult> rows() {
  return {row("a", Split::kCheck, "a100", 2.0, 2.2), row("b", Split::kCheck, "a100", 10.0, 7.0),
          row("c", Split::kCalibrate, "910b", 20.0, 21.0)};
}

}  // namespace

TEST_CASE("the validation summary groups errors per split, per split and hardware, and per hardware",
          "[validate]") {
  const ValidationSummary s = summarize_validation(rows());
  REQUIRE(s.by_split.size() == 2);
  CHECK(s.by_split[1].key == "check");
  CHECK(s.by_split[1].summary.mean_abs_percent == Approx(20.0));  // (10 + 30) / 2
  CHECK(s.by_split[1].summary.max_abs_percent == Approx(30.0));
  REQUIRE(s.by_split_hardware.size() == 2);
  CHECK(s.by_split_hardware[0].key == "calibrate / 910b");
  CHECK(s.by_split_hardware[1].key == "check / a100");
  REQUIRE(s.by_hardware.size() == 2);
  CHECK(s.by_hardware[0].key == "910b");
  CHECK(s.by_hardware[0].summary.mean_abs_percent == Approx(5.0));  // (21 - 20) / 20
}

TEST_CASE("the validation summary groups errors per kind of training, with and without the split", "[validate]") {
  std::vector<RowResult> r = rows();
  r[0].kind = "FP8 dense", r[1].kind = "MoE", r[2].kind = "FP8 dense";
  const ValidationSummary s = summarize_validation(r);
  REQUIRE(s.by_kind.size() == 2);
  CHECK(s.by_kind[0].key == "FP8 dense");
  CHECK(s.by_kind[0].summary.mean_abs_percent == Approx(7.5));  // (10 + 5) / 2
  CHECK(s.by_kind[1].summary.max_abs_percent == Approx(30.0));
  REQUIRE(s.by_split_kind.size() == 3);
  CHECK(s.by_split_kind[0].key == "calibrate / FP8 dense");
}

TEST_CASE("a run's kind is MoE for expert models, else FP8 or 16-bit dense by its precision", "[validate]") {
  RunSpec run;
  run.precision = Precision::kFp8;
  CHECK(row_kind(run) == "FP8 dense");
  run.precision = Precision::kBf16;
  CHECK(row_kind(run) == "16-bit dense");
  run.model.moe.experts = 8;
  CHECK(row_kind(run) == "MoE");
}

TEST_CASE("the CSV has one line per row with measured and predicted seconds and the signed error", "[validate]") {
  std::ostringstream out;
  write_validation_csv(out, rows());
  const std::string csv = out.str();
  CHECK(csv.rfind("id,split,hardware,devices,metric,measured_value,measured_s,predicted_s,error_pct,", 0) == 0);
  CHECK_THAT(csv, Catch::Contains("\nb,check,a100,8,iteration_s,10,10,7,-30,"));
  CHECK_THAT(csv, Catch::Contains(",40,80,no,0,0,0,0,0,0,0,0,0,0,0,0\n"));  // GiB, not folded, 12 empty categories
}

TEST_CASE("the Markdown report has the rows table, the summaries and the plot link", "[validate]") {
  std::ostringstream out;
  const auto r = rows();
  write_validation_markdown(out, r, summarize_validation(r), {"measurements.yaml", "trainsim validate", {}, "p.svg"});
  const std::string md = out.str();
  CHECK_THAT(md, Catch::Contains("| b | check | a100 | 8 | 10.000 | 7.000 | -30.0 | 40.0 of 80 |"));
  CHECK_THAT(md, Catch::Contains("| check / a100 | 2 | 20.0 | 30.0 | b |"));
  CHECK_THAT(md, Catch::Contains("![predicted vs measured](p.svg)"));
}

TEST_CASE("the report shows where each row's predicted time goes, as shares in Markdown and seconds in CSV",
          "[validate]") {
  // Row b predicts 7 s: 4 s forward + backward + 1 s recompute (compute 5 s = 71.4%), 0.7 s exposed TP
  // (10%), 0.35 s exposed DP (5%), 0.35 s exposed PP (5%), 0.35 s bubble + 0.175 s idle (7.5%), 0.075 s
  // optimizer (~1.1%).
  auto r = rows();
  auto& b = r[1].prediction.breakdown;
  auto at = [&b](TimeCategory c) -> Seconds& { return b[static_cast<size_t>(c)]; };
  at(TimeCategory::kForward) = 1.5;
  at(TimeCategory::kBackward) = 2.5;
  at(TimeCategory::kRecompute) = 1.0;
  at(TimeCategory::kExposedTp) = 0.7;
  at(TimeCategory::kExposedDp) = 0.35;
  at(TimeCategory::kBubble) = 0.35;
  at(TimeCategory::kExposedPp) = 0.35;
  at(TimeCategory::kIdle) = 0.175;
  at(TimeCategory::kOptimizer) = 0.075;
  std::ostringstream md;
  write_validation_markdown(md, r, summarize_validation(r), {"measurements.yaml", "trainsim validate", {}, ""});
  CHECK_THAT(md.str(), Catch::Contains("| b | -30.0 | 71.4 | 10.0 | 5.0 | 5.0 | 7.5 | 1.1 |"));
  std::ostringstream csv;
  write_validation_csv(csv, r);
  CHECK_THAT(csv.str(), Catch::Contains(",folded,forward_s,backward_s,recompute_s,optimizer_s,exposed_tp_s,"));
  CHECK_THAT(csv.str(), Catch::Contains(",exposed_dp_s,pipeline_bubble_s,exposed_pp_s,host_s,idle_s\n"));
  CHECK_THAT(csv.str(), Catch::Contains(",no,1.5,2.5,1,0.075,0.7,0,0,0.35,0.35,0.35,0,0.175\n"));
}

TEST_CASE("the gnuplot script draws y = x, a 10% band and one data block per hardware", "[validate]") {
  const std::string script = predicted_vs_measured_script(rows(), "out.svg");
  CHECK_THAT(script, Catch::Contains("set output 'out.svg'"));
  CHECK_THAT(script, Catch::Contains("set logscale xy"));
  CHECK_THAT(script, Catch::Contains("1.1*x") && Catch::Contains("0.9*x"));
  // Hardware sorted: 910b is $hw0, a100 is $hw1; check rows use point type 9 (triangle), calibrate 7.
  CHECK_THAT(script, Catch::Contains("$hw0 << EOD\n20 21 c 7\nEOD\n"));
  CHECK_THAT(script, Catch::Contains("$hw1 << EOD\n2 2.2 a 9\n10 7 b 9\nEOD\n"));
}

TEST_CASE("CSV fields with commas, quotes or line breaks are quoted, as RFC 4180 says", "[validate]") {
  CHECK(csv_field("gelu.fwd") == "gelu.fwd");
  CHECK(csv_field("norm, fused") == "\"norm, fused\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
  KernelMeasurement m;
  m.kind = MeasuredKind::kStream;
  m.op = "add, then scale";
  m.bytes = 1e6;
  m.measured_s = 1e-6;
  AcceleratorSpec acc;
  acc.memory_bandwidth = 1e12;
  std::ostringstream csv;
  write_kernel_csv(csv, {predict_kernel(m, acc, Precision::kBf16)});
  CHECK(csv.str().find("\nstream,\"add, then scale\",0,1e+06,") != std::string::npos);
}
