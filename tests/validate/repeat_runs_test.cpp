// Repeated runs (sim/validate/repeat_runs): rows whose runs are the same, measured more than once, and
// the spread of their measured times. The spreads are worked by hand in comments; the last case reads
// real run files, so that a copy differing only in name and comments is a repeat and a changed batch is not.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/config/loader.hpp"
#include "sim/validate/repeat_runs.hpp"
#include "tests/support/run_command.hpp"

using namespace trainsim;

namespace {

RowResult repeat_row(const std::string& id, const std::string& key, const std::string& hardware, Seconds measured) {
  RowResult r;
  r.measurement.id = id;
  r.measurement.hardware = hardware;
  r.run_key = key;
  r.measured_time = measured;
  return r;
}

Measurement repeat_measurement(const std::string& id, const std::filesystem::path& run, double seconds) {
  Measurement m;
  m.id = id;
  m.run = run;
  m.split = Split::kCheck;
  m.hardware = "dgx-a100-superpod";
  m.metric = MeasuredMetric::kIterationSeconds;
  m.value = seconds;
  return m;
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("rows with one run key on one hardware form a set; its spread is slowest over fastest", "[validate]") {
  // a and c share a key: measured 120 and 132 -> (132 - 120) / 120 = 10%. b, d and e share "y", but e is
  // on other hardware, so b and d form the set: 50 and 51 -> 2%. f has no key: never a repeat.
  const auto sets = find_repeats({repeat_row("a", "x", "hw", 120), repeat_row("b", "y", "hw", 50),
                                  repeat_row("c", "x", "hw", 132), repeat_row("d", "y", "hw", 51),
                                  repeat_row("e", "y", "other", 40), repeat_row("f", "", "hw", 120),
                                  repeat_row("g", "", "hw", 120)});
  REQUIRE(sets.size() == 2);
  CHECK(sets[0].ids == std::vector<std::string>{"a", "c"});
  CHECK(sets[0].measured == std::vector<Seconds>{120, 132});
  CHECK(sets[0].spread_percent == Approx(10));
  CHECK(sets[1].ids == std::vector<std::string>{"b", "d"});
  CHECK(sets[1].spread_percent == Approx(2));
}

TEST_CASE("three measurements of one run are one set, spread from the extremes", "[validate]") {
  // 10, 12.5, 11: (12.5 - 10) / 10 = 25%.
  const auto sets = find_repeats({repeat_row("a", "k", "hw", 10), repeat_row("b", "k", "hw", 12.5),
                                  repeat_row("c", "k", "hw", 11)});
  REQUIRE(sets.size() == 1);
  CHECK(sets[0].ids.size() == 3);
  CHECK(sets[0].spread_percent == Approx(25));
}

TEST_CASE("the repeated-runs sections print each set, and nothing without one", "[validate]") {
  std::ostringstream none_md, none_text;
  write_repeats_markdown(none_md, {});
  write_repeats_table(none_text, {});
  CHECK(none_md.str().empty());
  CHECK(none_text.str().empty());
  std::ostringstream md;
  write_repeats_markdown(md, find_repeats({repeat_row("p608", "k", "hw", 134.02), repeat_row("p669", "k", "hw", 120.29)}));
  // (134.02 - 120.29) / 120.29 = 11.41%
  CHECK(md.str().find("## Repeated runs") != std::string::npos);
  CHECK(md.str().find("| p608, p669 | 134.020, 120.290 | 11.4 |") != std::string::npos);
}

TEST_CASE("validate keys each row by its run: a renamed copy is a repeat, another batch is not", "[validate]") {
  const std::filesystem::path dir = test::scratch("trainsim-repeat-runs");
  std::filesystem::create_directories(dir);
  const std::string original = read_text(data_dir() / "validation" / "runs" / "k22-22b-full.yaml");
  std::string renamed = "# another comment\n" + original;
  renamed.replace(renamed.find("name: k22-22b-full"), 18, "name: k22-22b-copy");
  std::string other_batch = original;
  other_batch.replace(other_batch.find("global_batch: 4"), 15, "global_batch: 8");
  std::ofstream(dir / "renamed.yaml") << renamed;
  std::ofstream(dir / "batch8.yaml") << other_batch;
  const auto rows = validate_measurements(
      {repeat_measurement("orig", data_dir() / "validation" / "runs" / "k22-22b-full.yaml", 1.42),
       repeat_measurement("copy", dir / "renamed.yaml", 1.50), repeat_measurement("b8", dir / "batch8.yaml", 2.8)},
      ValidationOptions{});
  std::filesystem::remove_all(dir);
  const auto sets = find_repeats(rows);
  REQUIRE(sets.size() == 1);
  CHECK(sets[0].ids == std::vector<std::string>{"orig", "copy"});
  CHECK(sets[0].spread_percent == Approx((1.50 - 1.42) / 1.42 * 100));  // 5.63%
}
