#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "sim/config/overrides.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

namespace {
std::filesystem::path tiny_run() { return fixture_data() / "workloads/tiny-run.yaml"; }
}  // namespace

TEST_CASE("overrides set run keys, including keys the file leaves out", "[config]") {
  ScopedDataDir data(fixture_data());
  // tiny-run.yaml has tp 4, dp 2 on 8 devices and no micro_batch or pp.
  const RunSpec r = load_run(tiny_run(), {"strategy.tp=2", "strategy.pp=2", "seq_len=4096", "micro_batch=2",
                                          "strategy.overlap.tp_comm=true", "collectives.dp=tree"});
  CHECK(r.strategy.tp == 2);
  CHECK(r.strategy.pp == 2);
  CHECK(r.strategy.dp == 2);  // untouched
  CHECK(r.seq_len == 4096);
  CHECK(r.micro_batch == 2);
  CHECK(r.strategy.overlap.tp_comm);
  CHECK(r.collectives.at("dp") == "tree");
}

TEST_CASE("model and platform overrides change the presets a run names", "[config]") {
  ScopedDataDir data(fixture_data());
  const RunSpec r = load_run(tiny_run(), {"platform.tiers.1.bandwidth=100GBps",
                                          "platform.accelerator.peak_flops.bf16=2000TFLOPS",
                                          "platform.accelerator.peak_flops.fp8=4PFLOPS", "model.layers=2"});
  CHECK(r.platform.tiers[1].bandwidth == Approx(100e9));
  CHECK(r.platform.tiers[0].bandwidth == Approx(200e9));  // the other tier keeps its 200GBps
  CHECK(r.platform.accelerator.peak_flops.at(Precision::kBf16) == Approx(2000e12));
  CHECK(r.platform.accelerator.peak_flops.at(Precision::kFp8) == Approx(4e15));
  CHECK(r.model.layers == 2);
  CHECK(r.model.hidden == 256);  // untouched
  // A run-level `model=` swaps the preset itself; later model.* overrides apply to the new one.
  const RunSpec moe = load_run(tiny_run(), {"model=tiny-moe", "strategy.tp=2", "strategy.dp=4", "model.moe.top_k=3"});
  CHECK(moe.model.name == "tiny-moe");
  CHECK(moe.model.moe.top_k == 3);
}

TEST_CASE("an override of a key that does not exist names the segment and the valid keys", "[config]") {
  ScopedDataDir data(fixture_data());
  const ConfigError e = config_error([] { (void)load_run(tiny_run(), {"strategy.tpp=4"}); });
  CHECK(e.file() == "--set strategy.tpp=4");
  CHECK(e.line() == 0);
  CHECK(e.key_path() == "strategy.tpp");
  CHECK(std::string(e.what()) ==
        "--set strategy.tpp=4: strategy.tpp: unknown key (got 'tpp'); valid: tp, pp, dp, cp, ep, expert_tp, sequence_parallel, "
        "schedule, virtual_stages, first_stage_layers, last_stage_layers, pipeline_layout, stage_layers, account_for_embedding, "
        "account_for_loss, zero_stage, recompute, recompute_modules, recompute_layers, offload, optimizer_state, "
        "grad_bucket_size, grad_precision, "
        "grad_accumulation_fusion, grad_nan_check, grad_scale_kernel, defer_output_wgrad, mesh_order, "
        "keep_in_domain, overlap");
  // A segment in the middle of the path is named the same way.
  const ConfigError mid = config_error([] { (void)load_run(tiny_run(), {"platform.accelerater.name=x"}); });
  CHECK(mid.key_path() == "accelerater");
  CHECK_THAT(mid.what(),
             Catch::EndsWith("valid: name, description, accelerator, tiers, max_devices, host_slowdown, "
                             "host_link_bandwidth, host_memory_bandwidth, host_efficiency, uncalibrated"));
  // tiny-cluster has two tiers: indices 0 and 1.
  const ConfigError index = config_error([] { (void)load_run(tiny_run(), {"platform.tiers.2.latency=1us"}); });
  CHECK(index.key_path() == "tiers.2");
  CHECK_THAT(index.what(), Catch::EndsWith("no such list index (got '2'); valid: 0..1"));
  const ConfigError scalar = config_error([] { (void)load_run(tiny_run(), {"seq_len.max=3"}); });
  CHECK(scalar.key_path() == "seq_len.max");
}

TEST_CASE("an overridden value is validated like a written one and names the override", "[config]") {
  ScopedDataDir data(fixture_data());
  // Type check: a bandwidth without a unit.
  const ConfigError unit = config_error([] { (void)load_run(tiny_run(), {"platform.tiers.1.bandwidth=100"}); });
  CHECK(unit.file() == "--set platform.tiers.1.bandwidth=100");
  CHECK(unit.line() == 0);
  CHECK(unit.key_path() == "tiers.1.bandwidth");
  CHECK_THAT(unit.what(), Catch::Contains("a number needs a unit here (got '100')") && Catch::Contains("GBps"));
  // Run rule: tiny-dense has 8 heads, so tp = 3 cannot split them; the error points at the override.
  const ConfigError rule = config_error([] { (void)load_run(tiny_run(), {"strategy.tp=3"}); });
  CHECK(std::string(rule.what()) ==
        "--set strategy.tp=3: strategy.tp: must divide heads (8) and kv_heads (4) of model 'tiny-dense' (got '3'); "
        "valid: 1, 2, 4");
  const ConfigError model = config_error([] { (void)load_run(tiny_run(), {"model.layers=0"}); });
  CHECK(model.file() == "--set model.layers=0");
  CHECK(model.key_path() == "layers");
  CHECK_THAT(model.what(), Catch::EndsWith("out of range (got '0'); valid: an integer in 1..16384"));
}

TEST_CASE("an override without '=' or with an empty path segment is an error", "[config]") {
  ScopedDataDir data(fixture_data());
  const ConfigError no_eq = config_error([] { (void)load_run(tiny_run(), {"strategy.tp"}); });
  CHECK(no_eq.file() == "--set strategy.tp");
  CHECK_THAT(no_eq.what(), Catch::Contains("an override needs '='") && Catch::Contains("valid: key.path=value"));
  const ConfigError empty = config_error([] { (void)load_run(tiny_run(), {"strategy..tp=2"}); });
  CHECK_THAT(empty.what(), Catch::Contains("empty key in the override path"));
}

TEST_CASE("a flow-map override replaces a whole map", "[config]") {
  ScopedDataDir data(fixture_data());
  const RunSpec r =
      load_run(tiny_run(), {"platform.accelerator.peak_flops={bf16: 1PFLOPS}", "strategy={tp: 2, pp: 4}"});
  CHECK(r.platform.accelerator.peak_flops.size() == 1);  // fp32 entry gone with the old map
  CHECK(r.strategy.tp == 2);
  CHECK(r.strategy.pp == 4);
  CHECK(r.strategy.dp == 1);  // the file's dp: 2 went with the replaced map
}

TEST_CASE("an override path deeper than any run key is refused before any work, in a short message", "[config]") {
  // Issue 18, defect 3: a --set key of 40,000 segments took 4.7 GB and 30 s before its error
  // (one nested map and one copy of the whole text per segment). 40,000 segments of "a" plus
  // dots = 79,999 characters of path; the message quotes at most 60 of them.
  std::string path = "a";
  for (int i = 1; i < 40000; ++i) path += ".a";
  const ConfigError e = config_error([&] { (void)parse_override(path + "=1"); });
  CHECK_THAT(e.what(), Catch::Contains("the key path has 40000 segments; no key of a run is deeper than 16"));
  CHECK_THAT(e.what(), Catch::Contains("(79999 characters)"));
  CHECK(std::string(e.what()).size() < 600);
  // 16 segments is still a path (it then fails where the run has no such key, as any unknown key).
  std::string sixteen = "a";
  for (int i = 1; i < 16; ++i) sixteen += ".a";
  CHECK_NOTHROW(parse_override(sixteen + "=1"));
}
