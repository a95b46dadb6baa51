// validation/measurements.yaml: its loader is strict, and every row names a run that loads.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "sim/config/loader.hpp"
#include "sim/config/measurements.hpp"
#include "sim/core/error.hpp"

using namespace trainsim;
namespace fs = std::filesystem;

namespace {

fs::path measurements_file() { return data_dir() / "validation" / "measurements.yaml"; }

fs::path scratch_dir() { return fs::temp_directory_path() / ("trainsim-validate-" + std::to_string(::getpid())); }

// Removes this process's scratch folder when the test binary exits.
struct ScratchCleanup {
  ~ScratchCleanup() {
    std::error_code ec;
    fs::remove_all(scratch_dir(), ec);
  }
} scratch_cleanup;

// Writes `entry_lines` as the only entry of a measurements file in a scratch folder; `run:` points
// at a real run file by absolute path.
fs::path write_measurements(const std::string& name, const std::string& entry_lines) {
  fs::create_directories(scratch_dir());
  const fs::path file = scratch_dir() / name;
  std::ofstream(file) << "measurements:\n  - id: k22-22b-full\n    run: "
                      << (data_dir() / "validation/runs/k22-22b-full.yaml").string()
                      << "\n    split: check\n    hardware: dgx-a100-superpod\n    source: \"test\"\n"
                      << entry_lines;
  return file;
}

std::string load_error(const fs::path& file) {
  try {
    (void)load_measurements(file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("measurements.yaml holds one entry per published row, each with a run that loads", "[validate]") {
  const MeasurementSet set = load_measurements(measurements_file());
  // published-runs.yaml: 10 SC'21 + 5 Megatron-Core + 2 MindSpeed + 3 NeMo 24.07 + 1 Megatron-Bridge
  // calibrate rows = 21; 8 Korthikanti + 4 Megatron-Core + 2 MindSpeed + 5 NeMo 24.07 + 3 Megatron-Bridge
  // check rows = 22; plus the Megatron-Bridge 25.09 token-drop row of the Qwen3 layout, the 26.02
  // GPT-OSS row and Megatron-LM's two Qwen3-30B-A3B recipe rows, H100 and GB200 (check): 47. Megatron-Bridge's
  // Blackwell tables: 7 calibrate rows (Llama 3 8B on B200, GB200, GB300; 3.1 405B on each, GB200's twice) and
  // 8 check rows (the 8B and B200 405B in MXFP8, two 70B and two GB300 405B of 26.02): 62. Megatron-LM's
  // Qwen3-235B-A22B recipe row on H100 (check; expert tp 1 and EP overlap with virtual stages): 63.
  REQUIRE(set.rows.size() == 63);
  int calibrate = 0;
  std::set<std::string> ids;
  for (const auto& m : set.rows) {
    INFO(m.id);
    calibrate += m.split == Split::kCalibrate ? 1 : 0;
    CHECK(ids.insert(m.id).second);
    CHECK(m.run.filename() == m.id + ".yaml");
    const RunSpec run = load_run(m.run);
    CHECK(run.name == m.id);
    CHECK(run.platform.name == m.hardware);
    CHECK(!m.source.empty());
  }
  CHECK(calibrate == 28);
}

TEST_CASE("a valid one-entry measurements file loads with every field", "[validate]") {
  const auto file = write_measurements("ok.yaml", "    metric: tflops_per_device\n    value: 140\n"
                                                  "    flops_formula: megatron-full-recompute\n    mfu: 0.45\n");
  const MeasurementSet set = load_measurements(file);
  REQUIRE(set.rows.size() == 1);
  const Measurement& m = set.rows[0];
  CHECK(m.id == "k22-22b-full");
  CHECK(m.split == Split::kCheck);
  CHECK(m.metric == MeasuredMetric::kTflopsPerDevice);
  CHECK(m.value == 140);
  CHECK(m.flops_formula == FlopsFormula::kMegatronFullRecompute);
  CHECK(m.mfu == Approx(0.45));
  CHECK(m.line == 2);  // the entry's "- id:" line
}

TEST_CASE("TFLOP/s without the formula that counted them is rejected", "[validate]") {
  const auto file = write_measurements("no-formula.yaml", "    metric: tflops_per_device\n    value: 140\n");
  CHECK_THAT(load_error(file), Catch::Contains("measurements.0.flops_formula") &&
                                   Catch::Contains("megatron-full-recompute, megatron-no-recompute"));
}

TEST_CASE("a FLOP formula with a metric that does not use one is rejected", "[validate]") {
  const auto file = write_measurements("extra-formula.yaml", "    metric: iteration_s\n    value: 1.4\n"
                                                             "    flops_formula: megatron-no-recompute\n");
  CHECK_THAT(load_error(file), Catch::Contains("does not use a FLOP formula"));
}

TEST_CASE("unknown keys, bad enums, non-positive values and duplicate ids are rejected", "[validate]") {
  CHECK_THAT(load_error(write_measurements("key.yaml", "    metric: iteration_s\n    value: 1\n    devices: 8\n")),
             Catch::Contains("devices") && Catch::Contains("valid:"));
  CHECK_THAT(load_error(write_measurements("metric.yaml", "    metric: seconds\n    value: 1\n")),
             Catch::Contains("iteration_s"));
  CHECK_THAT(load_error(write_measurements("value.yaml", "    metric: iteration_s\n    value: 0\n")),
             Catch::Contains("measurements.0.value"));
  const auto dup = write_measurements("dup.yaml", "    metric: iteration_s\n    value: 1\n"
                                                  "  - id: k22-22b-full\n    run: " +
                                                      (data_dir() / "validation/runs/k22-22b-full.yaml").string() +
                                                      "\n    split: check\n    hardware: dgx-a100-superpod\n"
                                                      "    metric: iteration_s\n    value: 2\n    source: \"x\"\n");
  CHECK_THAT(load_error(dup), Catch::Contains("measurements.1.id") && Catch::Contains("unique"));
}

TEST_CASE("a run path that names no file is rejected at its line", "[validate]") {
  fs::create_directories(scratch_dir());
  const fs::path file = scratch_dir() / "missing-run.yaml";
  std::ofstream(file) << "measurements:\n  - id: x\n    run: runs/x.yaml\n    split: check\n"
                         "    hardware: h\n    metric: iteration_s\n    value: 1\n    source: s\n";
  CHECK_THAT(load_error(file), Catch::Contains(":3:") && Catch::Contains("measurements.0.run"));
}

TEST_CASE("several measurement files load as one set, and an id may appear in only one of them", "[validate]") {
  // Two one-entry files; the second renamed so both rows load, in the order the files are given.
  const fs::path a = write_measurements("a.yaml", "    metric: iteration_s\n    value: 1.42\n");
  const fs::path b = scratch_dir() / "b.yaml";
  {
    std::string text;
    std::ifstream in(a);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    text.replace(text.find("id: k22-22b-full"), 16, "id: my-own-run");
    std::ofstream(b) << text;
  }
  const MeasurementSet both = load_measurements(std::vector<fs::path>{a, b});
  REQUIRE(both.rows.size() == 2);
  CHECK(both.rows[0].id == "k22-22b-full");
  CHECK(both.rows[1].id == "my-own-run");
  CHECK(both.file == a.string() + ", " + b.string());
  // The same file twice: the second copy's entry (line 2) repeats an id of the first.
  try {
    (void)load_measurements(std::vector<fs::path>{a, a});
    FAIL("a repeated id was accepted");
  } catch (const ConfigError& e) {
    CHECK(e.file() == a.string());
    CHECK(e.line() == 2);
    CHECK(e.key_path() == "measurements.id");
    CHECK_THAT(e.what(), Catch::Contains("is also an id in " + a.string()) && Catch::Contains("(got 'k22-22b-full')"));
  }
}
