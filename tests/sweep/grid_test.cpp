// The sweep's grid: --vary parsing (and its errors), the cartesian product's order, --zip, and
// point names.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/sweep/grid.hpp"

using namespace trainsim;

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("a --vary splits its key from comma-separated values and keeps commas inside brackets", "[sweep]") {
  const VaryAxis a = parse_vary("platform.tiers.1.bandwidth=25GBps,50GBps,100GBps");
  CHECK(a.key == "platform.tiers.1.bandwidth");
  CHECK(a.values == std::vector<std::string>{"25GBps", "50GBps", "100GBps"});
  const VaryAxis b = parse_vary("strategy.overlap={tp_comm: true, pp_comm: false},{},[1,2]");
  CHECK(b.values == std::vector<std::string>{"{tp_comm: true, pp_comm: false}", "{}", "[1,2]"});
  CHECK(parse_vary("strategy.tp=4").values == std::vector<std::string>{"4"});
}

TEST_CASE("a malformed --vary is a user error quoting the argument and the valid form", "[sweep]") {
  for (const std::string bad : {"strategy.tp", "=1,2", "strategy.tp=", "strategy.tp=1,,2", "strategy.tp=1,", "a={1,2",
                                "a=1],2", "str ategy=1"}) {
    const std::string msg = error_of([&] { (void)parse_vary(bad); });
    INFO(bad);
    CHECK_THAT(msg, Catch::Contains("--vary '" + bad + "'") && Catch::Contains("valid: KEY=V1,V2,..."));
  }
  CHECK_THAT(error_of([] { (void)parse_vary("strategy.tp=1,,2"); }), Catch::Contains("empty value"));
  CHECK_THAT(error_of([] { (void)parse_vary("strategy.tp"); }), Catch::Contains("no '='"));
}

TEST_CASE("a key varied twice is refused", "[sweep]") {
  CHECK_THAT(error_of([] { (void)parse_varies({"strategy.tp=1,2", "seq_len=2048", "strategy.tp=4"}); }),
             Catch::Contains("key 'strategy.tp' is varied twice"));
}

TEST_CASE("a 2 x 3 grid expands to 6 points with the last --vary changing fastest", "[sweep]") {
  const auto grid = expand_grid(parse_varies({"a=1,2", "b=x,y,z"}), false);
  REQUIRE(grid.size() == 6);
  // Nested loops in the order given: a outer, b inner.
  const std::vector<std::pair<std::string, std::string>> expected = {{"1", "x"}, {"1", "y"}, {"1", "z"},
                                                                     {"2", "x"}, {"2", "y"}, {"2", "z"}};
  for (size_t i = 0; i < grid.size(); ++i) {
    CHECK(grid[i].index == static_cast<int>(i));
    CHECK(grid[i].values[0] == std::make_pair(std::string("a"), expected[i].first));
    CHECK(grid[i].values[1] == std::make_pair(std::string("b"), expected[i].second));
  }
  CHECK(expand_grid(parse_varies({"a=1,2", "b=x,y,z", "c=p,q"}), false).size() == 12);
}

TEST_CASE("zipped lists of three values give three points taking the i-th value of each", "[sweep]") {
  const auto grid = expand_grid(parse_varies({"devices=16,32,64", "strategy.dp=4,8,16"}), true);
  REQUIRE(grid.size() == 3);
  CHECK(point_overrides(grid[1]) == std::vector<std::string>{"devices=32", "strategy.dp=8"});
  CHECK(point_overrides(grid[2]) == std::vector<std::string>{"devices=64", "strategy.dp=16"});
}

TEST_CASE("zipped lists of different lengths are refused naming each length", "[sweep]") {
  const std::string msg = error_of([] { (void)expand_grid(parse_varies({"a=1,2,3", "b=x,y"}), true); });
  CHECK_THAT(msg, Catch::Contains("--zip") && Catch::Contains("a has 3") && Catch::Contains("b has 2"));
  CHECK_THAT(error_of([] { (void)expand_grid({}, false); }), Catch::Contains("at least one --vary"));
}

TEST_CASE("a point is named by its index and values, and its result file sorts in grid order", "[sweep]") {
  const auto grid = expand_grid(parse_varies({"a=1,2", "b=x"}), false);
  CHECK(point_label(grid[1]) == "point 1 (a=2, b=x)");
  CHECK(point_file_name(7) == "point-007.result");
  CHECK(point_file_name(1234) == "point-1234.result");
}
