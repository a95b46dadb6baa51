// Metrics of a replayed timeline: throughput figures from the iteration time worked by hand, and a
// non-finite time stopping as an internal error instead of being printed.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "sim/report/metrics.hpp"
#include "tests/support/tiny_run.hpp"

using namespace trainsim;

namespace {
RunSpec tiny() {
  RunSpec run = test::island_run(8, 100e9, 1e-6);
  run.global_batch = 16;
  run.seq_len = 1024;
  return run;
}
}  // namespace

TEST_CASE("tokens per second are the global batch's tokens over the iteration time", "[report]") {
  Timeline t;
  t.iteration_time = 2.0;
  // 16 sequences x 1024 tokens / 2 s = 8192 tokens/s.
  CHECK(compute_metrics(tiny(), t).tokens_per_s == Approx(8192));
}

TEST_CASE("a non-finite iteration time is an internal error, never a printed figure", "[report]") {
  Timeline t;
  t.iteration_time = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(compute_metrics(tiny(), t), std::logic_error);
  t.iteration_time = std::nan("");
  CHECK_THROWS_WITH(compute_metrics(tiny(), t), Catch::Contains("non-finite"));
}
