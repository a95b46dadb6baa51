// `trainsim check` and the command surface, run as a user runs them.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>

#include "tests/support/run_command.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {
}

TEST_CASE("trainsim check accepts every example run in workloads/", "[cli]") {
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(kRoot / "workloads")) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path());
    const CommandResult r = run_trainsim("check " + entry.path().string());
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("ok: the run is valid") != std::string::npos);
    ++checked;
  }
  CHECK(checked >= 10);  // the issue asks for a handful of examples; 12 are bundled
}

TEST_CASE("trainsim check exits 2 on each broken run and names the offending key", "[cli]") {
  int broken = 0;
  const std::regex expect_line("# expect-key: (\\S+)");
  for (const auto& entry : fs::directory_iterator(kRoot / "tests/config/fixtures/broken")) {
    const std::string text = slurp(entry.path().string());
    std::smatch m;
    if (!std::regex_search(text, m, expect_line)) continue;
    INFO(entry.path());
    const CommandResult r = run_trainsim("check " + entry.path().string());
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(m[1].str()) != std::string::npos);
    ++broken;
  }
  CHECK(broken >= 20);
}

TEST_CASE("a strategy that does not fit in memory is refused with the numbers", "[cli]") {
  // Llama-2 70B with tp 1, pp 1 on 16 H100: 70e9 parameters * 16 bytes of model state alone
  // (1.1 TB) far exceed 80 GiB.
  const CommandResult r = run_trainsim("check " + (kRoot / "workloads/default.yaml").string() +
                                   " --set model=llama2-70b --set strategy.tp=1 --set strategy.pp=1 --set strategy.dp=16"
                                   " --set global_batch=32");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("does not fit in memory") != std::string::npos);
  CHECK(r.err.find("GiB") != std::string::npos);
}

TEST_CASE("every command explains itself with --help and rejects unknown options", "[cli]") {
  const CommandResult top = run_trainsim("--help");
  CHECK(top.exit_code == 0);
  for (const char* cmd : {"list", "check", "graph", "simulate"}) {
    INFO(cmd);
    CHECK(top.out.find(cmd) != std::string::npos);
    const CommandResult help = run_trainsim(std::string(cmd) + " --help");
    CHECK(help.exit_code == 0);
    CHECK(help.out.find("usage: trainsim") != std::string::npos);
  }
  const CommandResult bad = run_trainsim("simulate " + (kRoot / "workloads/default.yaml").string() + " --jsn x.json");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--json") != std::string::npos);  // the valid options are listed
}

TEST_CASE("trainsim list shows presets and every registered component", "[cli]") {
  const CommandResult r = run_trainsim("list");
  REQUIRE(r.exit_code == 0);
  for (const char* name : {"dgx-h100-superpod", "llama3-405b", "1f1b", "zb-h1", "ring", "hierarchical",
                           "rail_optimized", "full_mesh"})
    CHECK(r.out.find(name) != std::string::npos);
  CHECK(run_trainsim("list gadgets").exit_code == 2);
}

TEST_CASE("calibrate refuses a parameter given twice, an unknown one and an empty list, with exit 2",
          "[cli]") {
  const CommandResult twice = run_trainsim("calibrate --platform ascend-910b-pod --param gemm_efficiency,gemm_efficiency");
  CHECK(twice.exit_code == 2);
  CHECK(twice.err.find("given twice") != std::string::npos);
  const CommandResult unknown = run_trainsim("calibrate --platform ascend-910b-pod --param gemm_efficiency,peak_flops");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("memory_efficiency") != std::string::npos);  // the valid ones are listed
  const CommandResult empty = run_trainsim("calibrate --platform ascend-910b-pod --param ,");
  CHECK(empty.exit_code == 2);
  CHECK(empty.err.find("gemm_efficiency") != std::string::npos);
}

TEST_CASE("check warns when a TP group spans two NVLink domains and the run allows it", "[cli]") {
  // The default run is tp 2 x dp 4 x pp 2 on nodes of 8. With dp, then pp, fastest-varying, tp's
  // stride is dp x pp = 8: rank 0's tp group is {0, 8}, one rank on each node.
  const std::string run = "check " + (kRoot / "workloads/default.yaml").string();
  const CommandResult across = run_trainsim(run + " --set strategy.mesh_order=dp-pp-tp-cp-ep");
  INFO(across.err);
  REQUIRE(across.exit_code == 0);
  CHECK(across.out.find("warning    tp group {0,8} spans 2 'nvlink' domains of 8 devices: its collectives cross "
                        "'ib' (strategy.keep_in_domain: [tp] refuses such a layout)\n") != std::string::npos);
  const CommandResult inside = run_trainsim(run);
  CHECK(inside.exit_code == 0);
  CHECK(inside.out.find("warning") == std::string::npos);
  // With the key, the same layout is refused at it (exit 2).
  const CommandResult kept = run_trainsim(run + " --set strategy.mesh_order=dp-pp-tp-cp-ep --set 'strategy.keep_in_domain=[tp]'");
  CHECK(kept.exit_code == 2);
  CHECK(kept.err.find("strategy.keep_in_domain: the tp group {0,8} spans 2 'nvlink' domains") != std::string::npos);
}

TEST_CASE("check warns when a Megatron run overlaps pipeline transfers outside the interleaved schedule", "[cli]") {
  const std::string run = "check " + (kRoot / "validation/runs/mb-llama3-70b.yaml").string();  // megatron-core
  const CommandResult interleaved = run_trainsim(run);
  INFO(interleaved.err);
  REQUIRE(interleaved.exit_code == 0);
  CHECK(interleaved.out.find("warning") == std::string::npos);
  const CommandResult plain = run_trainsim(run + " --set strategy.schedule=1f1b --set strategy.virtual_stages=1");
  REQUIRE(plain.exit_code == 0);
  CHECK(plain.out.find("warning    strategy.overlap.pp_comm: megatron-core overlaps pipeline transfers only in the "
                       "interleaved schedule") != std::string::npos);
  const CommandResult waits = run_trainsim(run + " --set strategy.schedule=1f1b --set strategy.virtual_stages=1 "
                                                 "--set strategy.overlap.pp_comm=false");
  CHECK(waits.out.find("warning") == std::string::npos);
}

TEST_CASE("check's strategy line names the weight-gradient switches a run sets", "[cli]") {
  const std::string run = "check " + (kRoot / "workloads/default.yaml").string();  // tp 2, pp 2, 8 micro-batches
  const CommandResult plain = run_trainsim(run);
  REQUIRE(plain.exit_code == 0);
  CHECK(plain.out.find("weight gradients") == std::string::npos);
  const CommandResult set = run_trainsim(run + " --set strategy.overlap.tp_grad_reduce=false "
                                               "--set strategy.defer_output_wgrad=20");
  REQUIRE(set.exit_code == 0);
  CHECK(set.out.find(", weight gradients after the TP reduction") != std::string::npos);
  CHECK(set.out.find(", output weight gradients of 8 micro-batches in the flush") != std::string::npos);  // at most m
}

TEST_CASE("check names the per-bucket gradient kernels a run sets, and refuses fp32 router logits without a TF32 peak",
          "[cli]") {
  const std::string run = "check " + (kRoot / "workloads/default.yaml").string();
  const CommandResult set = run_trainsim(run + " --set strategy.grad_nan_check=true --set strategy.grad_scale_kernel=true");
  REQUIRE(set.exit_code == 0);
  CHECK(set.out.find(", gradient buckets' norms checked on the host, gradient buckets scaled by 1/dp") != std::string::npos);
  // The Ascend 910B preset lists bf16 and fp16 peaks only.
  const CommandResult ascend = run_trainsim("check " + (kRoot / "validation/runs/mlm-recipe-qwen3-30b-a3b.yaml").string() +
                                            " --set platform=ascend-910b-pod");
  CHECK(ascend.exit_code == 2);
  CHECK(ascend.err.find("moe.router_dtype") != std::string::npos);
  CHECK(ascend.err.find("no tf32 or fp32 peak") != std::string::npos);
}
