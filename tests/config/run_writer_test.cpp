// A run written back as YAML (sim/config/run_writer.hpp: what `search` writes for its winners)
// loads into the same run, including the maps an FP8 MoE run sets.
#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "sim/config/run_writer.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;

TEST_CASE("an FP8 token-drop MoE run written as YAML loads back with its fp8, moe and framework maps", "[config]") {
  const RunSpec run = load_run(kRoot / "validation/runs/mb2509-qwen3-30b-a3b-tokendrop.yaml");
  REQUIRE(run.fp8.recipe == Fp8Recipe::kCurrent);  // the file's settings, not the defaults
  REQUIRE(run.fp8.param_gather);
  REQUIRE(run.moe.pad_to_capacity);
  REQUIRE(run.cross_entropy == CrossEntropy::kTe);
  const std::string text = run_yaml(run, {"qwen3-30b-a3b", "dgx-h100-superpod"}, "written back");
  const RunSpec back = load_run_text(text, "written", kRoot / "workloads", {});
  CHECK(back.fp8.recipe == run.fp8.recipe);
  CHECK(back.fp8.param_gather == run.fp8.param_gather);
  CHECK(back.moe.capacity_factor == run.moe.capacity_factor);
  CHECK(back.moe.pad_to_capacity == run.moe.pad_to_capacity);
  CHECK(back.moe.imbalance == run.moe.imbalance);
  CHECK(back.cross_entropy == run.cross_entropy);
  CHECK(back.strategy.optimizer_state == run.strategy.optimizer_state);
  CHECK(back.framework.moe.dispatch_sync == run.framework.moe.dispatch_sync);
  CHECK(back.framework.moe.per_expert_gemms == run.framework.moe.per_expert_gemms);
  CHECK(back.framework.host.library_launch == run.framework.host.library_launch);
  CHECK(back.expert_load() == run.expert_load());
  CHECK(run_yaml(back, {"qwen3-30b-a3b", "dgx-h100-superpod"}, "written back") == text);  // a fixed point
}

TEST_CASE("a flex-dispatcher run written as YAML keeps its dispatcher; the default writes no moe map", "[config]") {
  const RunSpec run = load_run(kRoot / "validation/runs/mlm-recipe-qwen3-30b-a3b.yaml");
  REQUIRE(run.moe.dispatcher == MoeDispatcher::kFlex);
  const std::string text = run_yaml(run, {"qwen3-30b-a3b", "dgx-h100-superpod"}, "");
  CHECK(text.find("dispatcher: flex") != std::string::npos);
  CHECK(load_run_text(text, "written", kRoot / "workloads", {}).moe.dispatcher == MoeDispatcher::kFlex);
  REQUIRE(run.moe.router_dtype == MoeRouterDtype::kFp32);
  REQUIRE(run.moe.force_balance);
  REQUIRE(run.moe.aux_loss);
  const RunSpec back = load_run_text(text, "written", kRoot / "workloads", {});
  CHECK(back.moe.router_dtype == MoeRouterDtype::kFp32);
  CHECK(back.moe.force_balance);
  CHECK(back.moe.aux_loss);
  const RunSpec dense = load_run(kRoot / "workloads/default.yaml");
  CHECK(run_yaml(dense, {"x", "y"}, "").find("moe:") == std::string::npos);
}
