// The base of a search (sim/cli/search_base.hpp): what the search varies is reset, what it does not is kept.
#include <catch2/catch.hpp>

#include "sim/cli/search_base.hpp"
#include "sim/config/loader.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;


TEST_CASE("a search keeps the run's per-bucket gradient kernels, which it does not vary", "[cli][search]") {
  const RunSpec run = load_run(kRoot / "validation/runs/mlm-h100-1.7b.yaml");  // tp 1, dp 48; checks and scales
  REQUIRE(run.strategy.grad_nan_check);
  REQUIRE(run.strategy.grad_scale_kernel);
  REQUIRE(run.strategy.dp == 48);
  const RunSpec base = with_strategy_cleared(run);
  CHECK(base.strategy.grad_nan_check);
  CHECK(base.strategy.grad_scale_kernel);
  CHECK(base.strategy.grad_bucket_size == run.strategy.grad_bucket_size);
  CHECK(base.strategy.dp == 1);  // a knob the search varies, back at its default
}
