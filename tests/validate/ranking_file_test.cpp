// validation/ranking.yaml and the `group` / `peak_memory` keys of a measurements file: ranking groups
// load strictly (a group of one row, or one that mixes splits, is bad input naming file, line and key),
// and every ranking row names a run that loads on the Jean Zay preset.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "sim/config/loader.hpp"
#include "sim/config/ranking_groups.hpp"
#include "sim/core/error.hpp"

using namespace trainsim;
namespace fs = std::filesystem;

namespace {

fs::path scratch() {
  const fs::path dir = fs::temp_directory_path() / ("trainsim-ranking-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

// One entry of a measurements file on the k22-22b-full run; `extra` adds or replaces keys (YAML lines).
std::string entry(const std::string& id, const std::string& extra) {
  return "  - id: " + id + "\n    run: " + (data_dir() / "validation/runs/k22-22b-full.yaml").string() +
         "\n    hardware: dgx-a100-superpod\n    metric: iteration_s\n    value: 1.4\n    source: \"test\"\n" + extra;
}

fs::path write_file(const std::string& name, const std::string& entries) {
  const fs::path file = scratch() / name;
  std::ofstream(file) << "measurements:\n" << entries;
  return file;
}

std::string ranking_load_error(const fs::path& file) {
  try {
    (void)load_measurements(file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("rows sharing a group load as one ranking group with their measured memory", "[validate]") {
  const fs::path file = write_file("two.yaml", entry("a", "    split: check\n    group: g\n    peak_memory: 29GiB\n") +
                                                   entry("b", "    split: check\n    group: g\n") +
                                                   entry("c", "    split: calibrate\n"));
  const MeasurementSet set = load_measurements(file);
  CHECK(set.rows[0].peak_memory == Approx(29.0 * 1024 * 1024 * 1024));
  CHECK(set.rows[1].peak_memory == 0);  // not measured
  const auto groups = ranking_groups(set);
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].name == "g");
  CHECK(groups[0].split == Split::kCheck);
  CHECK(groups[0].rows == std::vector<size_t>{0, 1});
}

TEST_CASE("a ranking group of one row is rejected at that row's line and key", "[validate]") {
  const fs::path file =
      write_file("one.yaml", entry("a", "    split: check\n") + entry("b", "    split: check\n    group: lonely\n"));
  // Entry b starts on line 9 (line 1 is "measurements:", each entry spans 8 lines).
  CHECK_THAT(ranking_load_error(file), Catch::Contains(file.string() + ":9: measurements.1.group") &&
                                   Catch::Contains("at least two rows") && Catch::Contains("(got 'lonely')"));
}

TEST_CASE("a ranking group that mixes splits is rejected, naming both rows", "[validate]") {
  const fs::path file = write_file("mixed.yaml", entry("a", "    split: calibrate\n    group: g\n") +
                                                     entry("b", "    split: check\n    group: g\n"));
  CHECK_THAT(ranking_load_error(file), Catch::Contains("measurements.1.group") && Catch::Contains("mixes splits") &&
                                   Catch::Contains("'b'") && Catch::Contains("'a'"));
}

TEST_CASE("ranking rows reject unknown keys, a memory without its unit and a missing value", "[validate]") {
  const fs::path key = write_file("key.yaml", entry("a", "    split: check\n    grup: g\n"));
  CHECK_THAT(ranking_load_error(key), Catch::Contains(key.string() + ":") && Catch::Contains("measurements.0") &&
                                  Catch::Contains("grup") && Catch::Contains("group"));
  // Entry a's peak_memory is its eighth line: line 9 of the file.
  const fs::path unit = write_file("unit.yaml", entry("a", "    split: check\n    peak_memory: 29\n"));
  CHECK_THAT(ranking_load_error(unit), Catch::Contains(unit.string() + ":9: measurements.0.peak_memory"));
  const fs::path no_value = scratch() / "no-value.yaml";
  std::ofstream(no_value) << "measurements:\n  - id: a\n    run: "
                          << (data_dir() / "validation/runs/k22-22b-full.yaml").string()
                          << "\n    split: check\n    hardware: dgx-a100-superpod\n    metric: iteration_s\n"
                             "    group: g\n    source: \"test\"\n";
  CHECK_THAT(ranking_load_error(no_value), Catch::Contains(no_value.string() + ":2: measurements.0.value"));
}

TEST_CASE("a group name may not continue in a second measurements file", "[validate]") {
  const fs::path a = write_file("ga.yaml", entry("a1", "    split: check\n    group: g\n") +
                                               entry("a2", "    split: check\n    group: g\n"));
  const fs::path b = write_file("gb.yaml", entry("b1", "    split: check\n    group: g\n") +
                                               entry("b2", "    split: check\n    group: g\n"));
  try {
    (void)load_measurements(std::vector<fs::path>{a, b});
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("measurements.group") && Catch::Contains("within one file"));
  }
}

TEST_CASE("validation/ranking.yaml: six BLOOM layout groups, most rows held out, every run loads", "[validate]") {
  const MeasurementSet set = load_measurements(data_dir() / "validation" / "ranking.yaml");
  REQUIRE(set.rows.size() == 20);
  const auto groups = ranking_groups(set);
  CHECK(groups.size() == 6);
  int check_rows = 0, with_memory = 0;
  for (const auto& m : set.rows) {
    INFO(m.id);
    CHECK(!m.group.empty());
    CHECK(m.hardware == "jean-zay-a100");
    CHECK(m.run.filename() == m.id + ".yaml");
    check_rows += m.split == Split::kCheck ? 1 : 0;
    with_memory += m.peak_memory > 0 ? 1 : 0;
    const RunSpec run = load_run(m.run);
    CHECK(run.name == m.id);
    CHECK(run.platform.name == m.hardware);
    CHECK(run.devices == 384);
    CHECK(run.strategy.dp * run.strategy.tp * run.strategy.pp == 384);
  }
  CHECK(2 * check_rows >= static_cast<int>(set.rows.size()));  // at least half held out
  CHECK(with_memory == 13);  // rows 607-670 record Mem; 686-712 say only "GB"
}
