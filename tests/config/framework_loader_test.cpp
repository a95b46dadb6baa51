// The `framework:` key of a run: a preset, a map over a base preset, --set overrides, and what
// blocking launches do to the overlap switches.
#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

TEST_CASE("the megatron-deepspeed preset loads with its cited and fitted values", "[config][framework]") {
  const FrameworkSpec f = load_framework("megatron-deepspeed");
  CHECK(f.name == "megatron-deepspeed");
  CHECK(f.host.launch == Approx(43.5e-6));
  CHECK_FALSE(f.host.launch_blocking);
  CHECK(f.softmax_fusion == SoftmaxFusion::kMegatronDeepSpeed2022);
  CHECK(f.partition == PartitionMethod::kUniform);
  CHECK(f.memory.context == 1573.0 * 1024 * 1024);
  CHECK(f.memory.fp32_grad_partition);
  CHECK(f.memory.keeps_stage_outputs);
}

TEST_CASE("a run without framework models none", "[config][framework]") {
  const RunSpec r = load_run(write_yaml("no-framework.yaml", run_yaml()));
  CHECK(r.framework.name == "none");
  CHECK_FALSE(r.framework.host.any());
  CHECK(r.strategy.overlap.dp_grad_reduce);  // the default switches stay
}

TEST_CASE("a framework map changes only the keys it names on its base", "[config][framework]") {
  const std::string extra = "framework: {base: megatron-deepspeed, host: {launch_blocking: true}}\n";
  const RunSpec r = load_run(write_yaml("fw-map.yaml", run_yaml("strategy: {tp: 4, dp: 2}", extra)));
  CHECK(r.framework.name == "megatron-deepspeed (modified)");
  CHECK(r.framework.host.launch == Approx(43.5e-6));
  CHECK(r.framework.host.launch_blocking);
  // Blocking launches serialise every stream: no overlap, whatever the strategy says.
  CHECK_FALSE(r.strategy.overlap.dp_grad_reduce);
  CHECK_FALSE(r.strategy.overlap.pp_comm);
  CHECK_FALSE(r.strategy.overlap.tp_grad_reduce);  // weight gradients wait for the TP reduction
}

TEST_CASE("set overrides of framework keys apply to the preset a run names or to none", "[config][framework]") {
  const auto named = write_yaml("fw-named.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "framework: megatron-lm\n"));
  const RunSpec a = load_run(named, {"framework.host.launch=10us"});
  CHECK(a.framework.name == "megatron-lm");
  CHECK(a.framework.host.launch == Approx(10e-6));
  const RunSpec b = load_run(write_yaml("fw-none.yaml", run_yaml()), {"framework.memory.context=1GiB"});
  CHECK(b.framework.name == "custom");
  CHECK(b.framework.memory.context == 1024.0 * 1024 * 1024);
  const RunSpec c = load_run(named, {"framework=megatron-deepspeed"});
  CHECK(c.framework.name == "megatron-deepspeed");
}

TEST_CASE("a framework without the asynchronous TP all-reduce turns tp_grad_reduce off", "[config][framework]") {
  const RunSpec deepspeed = load_run(write_yaml("fw-ds.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "framework: megatron-deepspeed\n")));
  CHECK_FALSE(deepspeed.framework.host.launch_blocking);
  CHECK_FALSE(deepspeed.framework.async_tp_grad_reduce);
  CHECK_FALSE(deepspeed.strategy.overlap.tp_grad_reduce);
  CHECK(deepspeed.strategy.overlap.dp_grad_reduce);  // only that switch
  const RunSpec core = load_run(write_yaml("fw-core.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "framework: megatron-core\n")));
  CHECK(core.strategy.overlap.tp_grad_reduce);
}

TEST_CASE("a framework's softmax_fusion names one of its rules; another word is refused with the valid ones",
          "[config][framework]") {
  const RunSpec none = load_run(write_yaml("fw-sm-none.yaml", run_yaml()));
  CHECK(none.framework.softmax_fusion == SoftmaxFusion::kAlways);
  CHECK(load_framework("megatron-core").softmax_fusion == SoftmaxFusion::kMegatron);
  CHECK(load_framework("megatron-lm").softmax_fusion == SoftmaxFusion::kMegatron);
  CHECK(load_framework("mindspeed").softmax_fusion == SoftmaxFusion::kAlways);  // NPUs run fused attention
  const RunSpec own = load_run(write_yaml("fw-sm-own.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "framework: {softmax_fusion: megatron}\n")));
  CHECK(own.framework.softmax_fusion == SoftmaxFusion::kMegatron);
  const std::string upstream = "framework: {base: megatron-deepspeed, softmax_fusion: megatron}\n";
  const RunSpec fixed = load_run(write_yaml("fw-sm-fixed.yaml", run_yaml("strategy: {tp: 4, dp: 2}", upstream)));
  CHECK(fixed.framework.softmax_fusion == SoftmaxFusion::kMegatron);
  const auto bad = write_yaml("fw-sm-bad.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "framework: {softmax_fusion: fused}\n"));
  const ConfigError e = config_error([&] { (void)load_run(bad); });
  CHECK(e.file() == bad.string());
  CHECK(e.key_path() == "framework.softmax_fusion");
  CHECK_THAT(e.what(), Catch::Contains("(got 'fused')") && Catch::Contains("always, megatron, megatron_deepspeed_2022"));
}
