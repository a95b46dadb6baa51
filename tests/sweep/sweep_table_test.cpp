// The sweep's table cells, the winners of a --search sweep, and the manifest's round trip.
#include <catch2/catch.hpp>

#include "sim/sweep/sweep_spec.hpp"
#include "sim/sweep/sweep_table.hpp"

using namespace trainsim;

namespace {
PointResult replayed(const SweepPoint& p, const std::string& strategy, double t) {
  PointResult r;
  r.point = p;
  r.strategy = strategy;
  r.iteration_time = t;
  r.tokens_per_s = 1000 / t;
  r.mfu = 0.5;
  r.memory = 40 * 1073741824.0;
  r.capacity = 80 * 1073741824.0;
  r.terms = {0.1, 0.2, 0.05, 0.05, 0.01, 0, 0, 0.02, 0.03};
  return r;
}
}  // namespace

TEST_CASE("the readable table has a column per varied key and sums compute into one column", "[sweep]") {
  const auto axes = parse_varies({"bw=25GBps,50GBps"});
  const auto grid = expand_grid(axes, false);
  std::vector<PointResult> results = {replayed(grid[0], "tp2", 0.5), replayed(grid[1], "tp2", 0.25)};
  results[1].status = PointStatus::kOutOfMemory;
  const SweepTable t = sweep_table(axes, results, TableStyle::kReadable);
  REQUIRE(t.header.size() == 13);  // point, bw, strategy, time, tokens, MFU, memory, compute, TP, CP, EP, DP, bubble
  CHECK(t.header[1] == "bw");
  CHECK(t.rows[0][1] == "25GBps");
  CHECK(t.rows[0][3] == "0.5000");
  CHECK(t.rows[0][5] == "50.0%");
  CHECK(t.rows[0][6] == "40.0 / 80");
  CHECK(t.rows[0][7] == "0.4000");  // 0.1 + 0.2 + 0.05 + 0.05
  CHECK(t.rows[1][3] == "out of memory");
  CHECK(t.rows[1][7] == "-");
}

TEST_CASE("the data table keeps every term in its own column with six significant digits", "[sweep]") {
  const auto axes = parse_varies({"bw=25GBps"});
  const SweepTable t = sweep_table(axes, {replayed(expand_grid(axes, false)[0], "tp2", 1.0 / 3.0)}, TableStyle::kData);
  REQUIRE(t.header.size() == 2 + 7 + 9);
  CHECK(t.header.back() == "bubble_s");
  CHECK(t.rows[0][2] == "replayed");
  CHECK(t.rows[0][4] == "0.333333");
  PointResult oom = replayed(expand_grid(axes, false)[0], "tp1", 1);
  oom.status = PointStatus::kOutOfMemory;
  const SweepTable o = sweep_table(axes, {oom}, TableStyle::kData);
  CHECK(o.rows[0][2] == "out-of-memory");
  CHECK(o.rows[0][4].empty());      // no iteration time for a point that was not replayed
  CHECK(o.rows[0][7] == "40");      // its memory and capacity are known
  CHECK(o.rows[0].back().empty());
}

TEST_CASE("winners group the points where each strategy is fastest in order of first appearance", "[sweep]") {
  const auto grid = expand_grid(parse_varies({"bw=25GBps,50GBps,100GBps"}), false);
  const std::vector<PointResult> results = {replayed(grid[0], "tp8 pp8", 1), replayed(grid[1], "tp4 pp4", 1),
                                            replayed(grid[2], "tp8 pp8", 1)};
  const auto lines = strategy_win_lines(results);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "tp8 pp8  wins at bw=25GBps; bw=100GBps");
  CHECK(lines[1] == "tp4 pp4  wins at bw=50GBps");
  const auto two = expand_grid(parse_varies({"bw=25GBps,50GBps", "tp=2"}), false);
  CHECK(strategy_win_lines({replayed(two[0], "a", 1), replayed(two[1], "a", 1)}) ==
        std::vector<std::string>{"a  wins at (bw=25GBps, tp=2); (bw=50GBps, tp=2)"});
}

TEST_CASE("a sweep manifest reads back as the sweep it describes", "[sweep]") {
  SweepSpec s;
  s.run_file = "workloads/some run.yaml";  // a relative path with a space
  s.run_name = "default";
  s.sets = {"model.layers=4"};
  s.varies = {"a=1,2", "b={x: 1, y: 2},{}"};
  s.zip = true;
  s.search = true;
  s.top = 2;
  s.space = {"micro_batch=1,2"};
  s.fix = {"zero_stage=1"};
  const SweepSpec back = parse_sweep_manifest(sweep_manifest_text(s), "m");
  CHECK(back.run_file == s.run_file);
  CHECK(back.run_name == s.run_name);
  CHECK(back.sets == s.sets);
  CHECK(back.varies == s.varies);
  CHECK(back.zip);
  CHECK(back.search);
  CHECK(back.top == 2);
  CHECK(back.space == s.space);
  CHECK(back.fix == s.fix);
  CHECK(sweep_manifest_text(back) == sweep_manifest_text(s));
  CHECK_THROWS_WITH(parse_sweep_manifest("run x\n", "m"), Catch::Contains("not a trainsim sweep manifest"));
  const std::string header = sweep_manifest_text(SweepSpec{}).substr(0, sweep_manifest_text(SweepSpec{}).find('\n') + 1);
  CHECK_THROWS_WITH(parse_sweep_manifest(header + "run x\ncolour red\n", "m"), Catch::Contains("m:3: unknown manifest line 'colour red'"));
  CHECK_THROWS_WITH(parse_sweep_manifest(header + "vary a=1\n", "m"), Catch::Contains("names no run"));
  SweepSpec broken = s;
  broken.sets = {"a=1\nb"};
  CHECK_THROWS_WITH(sweep_manifest_text(broken), Catch::Contains("holds a line break"));
}
