// A point's result survives its text form exactly (what makes a merge of emitted jobs
// byte-identical to a local sweep), and a merge refuses missing or foreign results.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/sweep/merge.hpp"

using namespace trainsim;

namespace {
PointResult sample(const SweepPoint& p) {
  PointResult r;
  r.point = p;
  r.strategy = "tp2 pp2 dp4";
  r.iteration_time = 0.1 + 1.0 / 3.0;  // not a short decimal: the text must keep every bit
  r.tokens_per_s = 123456.78901234567;
  r.mfu = 0.41234567890123;
  r.memory = 41.5 * 1073741824.0;
  r.capacity = 80.0 * 1073741824.0;
  for (size_t k = 0; k < r.terms.size(); ++k) r.terms[k] = 0.01 * static_cast<double>(k) + 1e-9 / 7;
  return r;
}
}  // namespace

TEST_CASE("a point result read back from its text equals the one written, to the last bit", "[sweep]") {
  const auto grid = expand_grid(parse_varies({"platform.tiers.1.bandwidth=25GBps,50GBps", "strategy.overlap={a: 1}"}), false);
  const PointResult r = sample(grid[1]);
  const PointResult back = parse_point_result(point_result_text(r), "test");
  CHECK(back.point.index == 1);
  CHECK(back.point.values == r.point.values);
  CHECK(back.status == PointStatus::kReplayed);
  CHECK(back.strategy == r.strategy);
  CHECK(back.iteration_time == r.iteration_time);
  CHECK(back.tokens_per_s == r.tokens_per_s);
  CHECK(back.mfu == r.mfu);
  CHECK(back.memory == r.memory);
  CHECK(back.terms == r.terms);
  CHECK(point_result_text(back) == point_result_text(r));
}

TEST_CASE("a text that is not a point result is refused naming its source", "[sweep]") {
  CHECK_THROWS_WITH(parse_point_result("hello\n", "dir/point-000.result"), Catch::Contains("dir/point-000.result"));
  const auto grid = expand_grid(parse_varies({"a=1"}), false);
  std::string text = point_result_text(sample(grid[0]));
  text.replace(text.find("iteration_s "), 12, "iteration_x ");
  CHECK_THROWS_WITH(parse_point_result(text, "f"), Catch::Contains("no 'iteration_s' line"));
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = point_result_text(sample(grid[0]));
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  CHECK_THROWS_WITH(parse_point_result(with("mfu 0.", "mfu x0."), "f"), Catch::Contains("'mfu' is not a number"));
  CHECK_THROWS_WITH(parse_point_result(with("status replayed", "status fine"), "f"),
                    Catch::Contains("unknown point status 'fine'"));
  CHECK_THROWS_WITH(parse_point_result(with("terms ", "terms 1 2\nx "), "f"), Catch::Contains("'terms' needs 9 numbers"));
}

TEST_CASE("a merge returns the results in grid order and lists every point without one", "[sweep]") {
  const auto grid = expand_grid(parse_varies({"a=1,2,3"}), false);
  std::vector<std::optional<std::string>> texts;
  for (const auto& p : grid) texts.push_back(point_result_text(sample(p)));
  const auto merged = merge_point_results(grid, texts, "jobs");
  REQUIRE(merged.size() == 3);
  CHECK(merged[2].point.values[0].second == "3");
  texts[0].reset();
  texts[2].reset();
  CHECK_THROWS_WITH(merge_point_results(grid, texts, "jobs"),
                    Catch::Contains("2 of 3 points have no result") && Catch::Contains("point 0 (a=1)") &&
                        Catch::Contains("point 2 (a=3)"));
}

TEST_CASE("a merge refuses a result file of another sweep's point", "[sweep]") {
  const auto grid = expand_grid(parse_varies({"a=1,2"}), false);
  const auto other = expand_grid(parse_varies({"a=1,5"}), false);
  std::vector<std::optional<std::string>> texts = {point_result_text(sample(grid[0])), point_result_text(sample(other[1]))};
  CHECK_THROWS_WITH(merge_point_results(grid, texts, "jobs"),
                    Catch::Contains("jobs/point-001.result") && Catch::Contains("another sweep"));
}
