// Each rule load_run checks, with the run file, line, key and the valid values in the message.
// The base run (run_yaml) is tiny-dense (4 layers, 8 heads, 4 kv_heads) on tiny-cluster
// (max 64 devices, peaks for bf16 and fp32), 8 devices, seq_len 2048, global_batch 16;
// its strategy is on line 8 and `extra` lines start at line 9.
#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

namespace {
ConfigError run_error(const std::string& name, const std::string& strategy, const std::string& extra = "") {
  const auto file = write_yaml(name, run_yaml(strategy, extra));
  ConfigError e = config_error([&] { (void)load_run(file); });
  CHECK(e.file() == file.string());
  return e;
}

// The base run with the fixture model preset `model` (fixtures/data/workloads/models) in place of tiny-dense.
std::string run_yaml_of_model(const std::string& model, const std::string& strategy) {
  std::string text = run_yaml(strategy);
  const size_t at = text.find("model: ");
  text.replace(at, text.find('\n', at) - at, "model: " + (fixture_data() / "workloads/models" / (model + ".yaml")).string());
  return text;
}
}  // namespace

TEST_CASE("the base run of the rule tests is valid", "[config]") {
  CHECK_NOTHROW(load_run(write_yaml("base.yaml", run_yaml())));
}

TEST_CASE("tp*pp*dp*cp must equal devices, and the message shows the product", "[config]") {
  const ConfigError e = run_error("product.yaml", "strategy: {tp: 2, pp: 2, dp: 1, cp: 1}");
  CHECK(e.line() == 4);
  CHECK(e.key_path() == "devices");
  CHECK_THAT(e.what(), Catch::EndsWith("devices: tp*pp*dp*cp = 2*2*1*1 = 4 does not equal devices (got '8'); "
                                       "valid: 4, or degrees whose product is 8"));
}

TEST_CASE("every degree must be at least 1", "[config]") {
  const ConfigError e = run_error("cp0.yaml", "strategy: {tp: 4, dp: 2, cp: 0}");
  CHECK(e.line() == 8);
  CHECK(e.key_path() == "strategy.cp");
  CHECK_THAT(e.what(), Catch::EndsWith("out of range (got '0'); valid: an integer >= 1"));
}

TEST_CASE("tp must divide heads and kv_heads; the common divisors are listed", "[config]") {
  // heads 8 and kv_heads 4 share the divisors 1, 2, 4; tp 8 divides heads but not kv_heads.
  const ConfigError e = run_error("tp.yaml", "strategy: {tp: 8}");
  CHECK(e.line() == 8);
  CHECK(e.key_path() == "strategy.tp");
  CHECK_THAT(e.what(), Catch::EndsWith("(got '8'); valid: 1, 2, 4"));
}

TEST_CASE("pp cannot exceed the number of layers", "[config]") {
  const ConfigError e = run_error("pp.yaml", "strategy: {pp: 8}");
  CHECK(e.key_path() == "strategy.pp");
  CHECK_THAT(e.what(), Catch::EndsWith("exceeds the model's 4 layers (got '8'); valid: an integer in 1..4"));
}

TEST_CASE("an uneven pipeline split must leave the other stages an equal share", "[config]") {
  // 4 layers over pp 4 with first_stage_layers 2: 2 layers left for 3 stages, not one each.
  const ConfigError e = run_error("uneven.yaml", "strategy: {tp: 2, pp: 4, first_stage_layers: 2}");
  CHECK(e.line() == 8);
  CHECK(e.key_path() == "strategy.first_stage_layers");
  CHECK_THAT(e.what(), Catch::Contains("the 2 layers left after the first and last stage must split equally over the "
                                       "other 3 stages") && Catch::Contains("(got '2')"));
  // First 1 and last 1 leave 2 layers for the 2 middle stages: valid.
  CHECK_NOTHROW(load_run(write_yaml("uneven-ok.yaml", run_yaml("strategy: {tp: 2, pp: 4, first_stage_layers: 1, last_stage_layers: 1}"))));
}

TEST_CASE("interleaving needs layers divisible by pp*virtual_stages", "[config]") {
  // 4 layers over pp 2 leaves 2 layers per rank: virtual_stages 1 or 2 divide it, 4 does not
  // (2*4 = 8 chunks for 4 layers).
  const ConfigError e = run_error("vs.yaml", "strategy: {tp: 4, pp: 2, virtual_stages: 4}");
  CHECK(e.key_path() == "strategy.virtual_stages");
  CHECK_THAT(e.what(), Catch::EndsWith("pp*virtual_stages = 8 chunks (or set first_stage_layers / last_stage_layers) (got '4'); valid: 1, 2"));
  const ConfigError zero = run_error("vs0.yaml", "strategy: {tp: 4, pp: 2, virtual_stages: 0}");
  CHECK(zero.key_path() == "strategy.virtual_stages");
  CHECK_NOTHROW(load_run(write_yaml("vs-ok.yaml", run_yaml("strategy: {tp: 4, pp: 2, virtual_stages: 2, schedule: interleaved}"))));
}

TEST_CASE("cp must divide seq_len", "[config]") {
  // seq_len 2048 = 2^11 splits over cp 8.
  CHECK(load_run(write_yaml("cp-ok.yaml", run_yaml("strategy: {cp: 8}"))).strategy.cp == 8);
  // seq_len 7 is prime: only cp 1 or 7. With seq_len 3000 = 2^3 * 3 * 5^3 on 7 devices, the
  // divisors of 3000 that fit on 7 devices are 1, 2, 3, 4, 5, 6.
  std::string text = run_yaml("strategy: {cp: 8}");
  const auto file = write_yaml("cp-seq.yaml", text.replace(text.find("seq_len: 2048"), 13, "seq_len: 7"));
  const ConfigError written = config_error([&] { (void)load_run(file); });
  CHECK(written.line() == 8);
  CHECK(written.key_path() == "strategy.cp");
  CHECK_THAT(written.what(), Catch::EndsWith("must divide seq_len (7) (got '8'); valid: 1, 7"));
  const ConfigError c = config_error([&] { (void)load_run(file, {"seq_len=3000", "strategy.cp=7", "devices=7"}); });
  CHECK(c.file() == "--set strategy.cp=7");
  CHECK(c.key_path() == "strategy.cp");
  CHECK_THAT(c.what(), Catch::EndsWith("must divide seq_len (3000) (got '7'); valid: 1, 2, 3, 4, 5, 6"));
}

TEST_CASE("expert parallelism needs experts, and ep must divide both dp*cp and the experts", "[config]") {
  const ConfigError dense = run_error("ep-dense.yaml", "strategy: {tp: 4, dp: 2, ep: 2}");
  CHECK(dense.key_path() == "strategy.ep");
  CHECK_THAT(dense.what(), Catch::EndsWith("is dense (moe.experts is 0) (got '2'); valid: 1"));
  // With model.moe.experts = 6 and dp*cp = 2: ep 4 divides neither; ep 3 divides 6 but not 2;
  // common divisors of 2 and 6 are 1, 2.
  const auto file = write_yaml("ep.yaml", run_yaml("strategy: {tp: 4, dp: 2, ep: 4}"));
  const ConfigError e = config_error([&] { (void)load_run(file, {"model.moe.experts=6"}); });
  CHECK(e.line() == 8);
  CHECK_THAT(e.what(), Catch::EndsWith("must divide dp*cp (2) (got '4'); valid: 1, 2"));
  const ConfigError e3 = config_error([&] { (void)load_run(file, {"model.moe.experts=6", "strategy.ep=3"}); });
  CHECK_THAT(e3.what(), Catch::EndsWith("must divide dp*cp (2) (got '3'); valid: 1, 2"));
  CHECK(load_run(file, {"model.moe.experts=6", "strategy.ep=2"}).strategy.ep == 2);
}

TEST_CASE("global_batch must split over dp, and micro_batch must divide each replica's share", "[config]") {
  const auto file = write_yaml("gb.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "micro_batch: 3\n"));
  // global_batch 16 over dp 2 is 8 per replica, whose divisors are 1, 2, 4, 8.
  const ConfigError mb = config_error([&] { (void)load_run(file); });
  CHECK(mb.line() == 9);
  CHECK(mb.key_path() == "micro_batch");
  CHECK_THAT(mb.what(), Catch::EndsWith("must divide global_batch/dp = 8 (got '3'); valid: 1, 2, 4, 8"));
  const ConfigError gb = config_error([&] { (void)load_run(file, {"global_batch=15"}); });
  CHECK(gb.key_path() == "global_batch");
  CHECK_THAT(gb.what(), Catch::EndsWith("must be divisible by strategy.dp (2) (got '15'); valid: a multiple of 2"));
}

TEST_CASE("zero_stage is 0 to 3", "[config]") {
  const ConfigError e = run_error("zero.yaml", "strategy: {tp: 4, dp: 2, zero_stage: 4}");
  CHECK(e.key_path() == "strategy.zero_stage");
  CHECK_THAT(e.what(), Catch::EndsWith("(got '4'); valid: an integer in 0..3"));
}

TEST_CASE("sequence_parallel with tp = 1 is allowed", "[config]") {
  const auto file = write_yaml("sp.yaml", run_yaml("strategy: {dp: 8, sequence_parallel: true, schedule: gpipe}"));
  const RunSpec r = load_run(file);
  CHECK(r.strategy.sequence_parallel);
  CHECK(r.strategy.schedule == "gpipe");
}

TEST_CASE("devices cannot exceed the platform's max_devices", "[config]") {
  const auto file = write_yaml("max.yaml", run_yaml("strategy: {tp: 4, dp: 2}"));
  const ConfigError e = config_error([&] { (void)load_run(file, {"platform.max_devices=4"}); });
  CHECK(e.file() == file.string());
  CHECK(e.line() == 4);
  CHECK(e.key_path() == "devices");
  CHECK_THAT(e.what(), Catch::EndsWith("(got '8'); valid: an integer in 1..4 (max_devices)"));
  CHECK(load_run(file, {"platform.max_devices=0"}).devices == 8);  // 0 = unbounded
}

TEST_CASE("the run's precision needs a peak_flops entry on the accelerator", "[config]") {
  const auto file = write_yaml("prec.yaml", run_yaml());
  const ConfigError e = config_error([&] { (void)load_run(file, {"precision=fp16"}); });
  CHECK(e.file() == "--set precision=fp16");
  CHECK(e.key_path() == "precision");
  CHECK_THAT(e.what(), Catch::EndsWith("has no peak_flops entry for it (got 'fp16'); valid: fp32, bf16"));
}

TEST_CASE("strategy.keep_in_domain refuses a TP group that spans two nodes, naming the group", "[config]") {
  // tiny-cluster has nodes of 4 (tiers.0.domain_size). With dp fastest-varying, rank 0's tp group
  // is {0, 2, 4, 6} (stride dp = 2): ranks 0-3 are node 0, 4-7 node 1.
  const std::string kept = "strategy: {tp: 4, dp: 2, mesh_order: dp-tp-cp-ep-pp, keep_in_domain: [tp]}";
  const ConfigError e = run_error("keep-tp.yaml", kept);
  CHECK(e.line() == 8);
  CHECK(e.key_path() == "strategy.keep_in_domain");
  CHECK_THAT(e.what(), Catch::Contains("the tp group {0,2,…,6} spans 2 'nvlink' domains of 4 devices"));
  CHECK_THAT(e.what(), Catch::Contains("(got 'tp')"));
  // The Megatron order keeps tp 4 on one node; without the key the straddling layout loads.
  CHECK_NOTHROW(load_run(write_yaml("keep-tp-ok.yaml", run_yaml("strategy: {tp: 4, dp: 2, keep_in_domain: [tp]}"))));
  CHECK_NOTHROW(load_run(write_yaml("keep-tp-off.yaml", run_yaml("strategy: {tp: 4, dp: 2, mesh_order: dp-tp-cp-ep-pp}"))));
}

TEST_CASE("strategy.keep_in_domain refuses an EP group larger than a node", "[config]") {
  // tiny-moe (8 experts) on 8 devices, dp 8: the EP group of 8 is ranks 0-7, two nodes of 4;
  // ep 4 gives groups {0..3} and {4..7}, one node each.
  auto run = [](const std::string& strategy) { return run_yaml_of_model("tiny-moe", strategy); };
  const auto bad = write_yaml("keep-ep.yaml", run("strategy: {dp: 8, ep: 8, keep_in_domain: [tp, ep]}"));
  const ConfigError e = config_error([&] { (void)load_run(bad); });
  CHECK(e.key_path() == "strategy.keep_in_domain");
  CHECK_THAT(e.what(), Catch::Contains("the ep group {0,1,…,7} spans 2 'nvlink' domains"));
  CHECK_NOTHROW(load_run(write_yaml("keep-ep-ok.yaml", run("strategy: {dp: 8, ep: 4, keep_in_domain: [tp, ep]}"))));
}

TEST_CASE("strategy.keep_in_domain names parallel dimensions, each once", "[config]") {
  const ConfigError unknown = run_error("keep-xx.yaml", "strategy: {tp: 4, dp: 2, keep_in_domain: [tp, sp]}");
  CHECK(unknown.key_path() == "strategy.keep_in_domain");
  CHECK_THAT(unknown.what(), Catch::Contains("'sp' is not a parallel dimension"));
  CHECK_THAT(unknown.what(), Catch::EndsWith("valid: a list naming each of tp, cp, ep, dp, pp at most once, e.g. [tp, ep]"));
  const ConfigError twice = run_error("keep-2x.yaml", "strategy: {tp: 4, dp: 2, keep_in_domain: [ep, ep]}");
  CHECK_THAT(twice.what(), Catch::Contains("names ep twice"));
}

TEST_CASE("strategy.recompute_modules names known modules once, with selective recompute only", "[config]") {
  const std::string expected = "valid: a list naming each of core_attn, layernorm, moe_act, mlp, mla_up_proj at most once, e.g. "
                               "[core_attn, moe_act]";
  const ConfigError unknown =
      run_error("modules-xx.yaml", "strategy: {tp: 4, dp: 2, recompute: selective, recompute_modules: [moe]}");
  CHECK(unknown.line() == 8);
  CHECK(unknown.key_path() == "strategy.recompute_modules");
  CHECK_THAT(unknown.what(), Catch::Contains("'moe' is not a module trainsim recomputes"));
  CHECK_THAT(unknown.what(), Catch::EndsWith(expected));
  const ConfigError twice =
      run_error("modules-2x.yaml", "strategy: {tp: 4, dp: 2, recompute: selective, recompute_modules: [mlp, mlp]}");
  CHECK_THAT(twice.what(), Catch::Contains("names mlp twice"));
  const ConfigError full =
      run_error("modules-full.yaml", "strategy: {tp: 4, dp: 2, recompute: full, recompute_modules: [mlp]}");
  CHECK(full.key_path() == "strategy.recompute_modules");
  CHECK_THAT(full.what(), Catch::Contains("applies to selective recompute only, but strategy.recompute is full"));
  const RunSpec ok = load_run(
      write_yaml("modules-ok.yaml", run_yaml("strategy: {tp: 4, dp: 2, recompute: selective, recompute_modules: [mlp]}")));
  CHECK(ok.strategy.recompute_modules.mlp);
  CHECK_FALSE(ok.strategy.recompute_modules.core_attn);  // a written list replaces the default
}

TEST_CASE("context parallelism is refused on a model with sliding-window attention", "[config][window]") {
  const auto file = write_yaml("cp-window.yaml", run_yaml("strategy: {tp: 4, cp: 2}"));
  const ConfigError e = config_error([&] { (void)load_run(file, {"model.sliding_window=128"}); });
  CHECK(e.key_path() == "strategy.cp");
  CHECK_THAT(e.what(), Catch::Contains("sliding-window attention (sliding_window 128)"));
  CHECK_THAT(e.what(), Catch::EndsWith("(got '2'); valid: 1"));
  CHECK_NOTHROW(load_run(file));
}

TEST_CASE("strategy.overlap.ep_comm is refused where there is no EP all-to-all to overlap", "[config][ep_overlap]") {
  const ConfigError e = run_error("ep-comm.yaml", "strategy: {tp: 4, dp: 2, overlap: {ep_comm: true}}");
  CHECK(e.key_path() == "strategy.overlap.ep_comm");
  CHECK_THAT(e.what(), Catch::Contains("EP overlap (combined 1F1B) has no EP all-to-all to overlap"));
  CHECK_THAT(e.what(), Catch::EndsWith("valid: false, or ep > 1 on an MoE model with recompute none or selective, "
                                       "zero_stage 0-2, and pp 1 with schedule 1f1b or pp > 1 with schedule interleaved "
                                       "and virtual_stages >= 2"));
}

TEST_CASE("strategy.expert_tp 1 carves EP groups out of tp x cp x dp", "[config][expert_tp]") {
  // tiny-moe-routed (16 routed experts) on 8 devices, tp 2 x dp 4: ep 8 exceeds dp 4, which only
  // whole experts folded over the tp ranks allow.
  auto run = [](const std::string& strategy) { return run_yaml_of_model("tiny-moe-routed", strategy); };
  const RunSpec folded = load_run(write_yaml("fold.yaml", run("strategy: {tp: 2, dp: 4, ep: 8, expert_tp: 1, sequence_parallel: true}")));
  CHECK(folded.strategy.folds_experts());
  CHECK(folded.strategy.expert_span() == 8);
  const ConfigError e = config_error([&] { (void)load_run(write_yaml("unfolded.yaml", run("strategy: {tp: 2, dp: 4, ep: 8, sequence_parallel: true}"))); });
  CHECK(e.key_path() == "strategy.ep");
  CHECK_THAT(e.what(), Catch::Contains("must divide dp*cp (4)"));
  const ConfigError one = config_error([&] { (void)load_run(write_yaml("fold-ep1.yaml", run("strategy: {tp: 2, dp: 4, expert_tp: 1, sequence_parallel: true}"))); });
  CHECK(one.key_path() == "strategy.expert_tp");
  CHECK_THAT(one.what(), Catch::Contains("only with expert parallelism"));
  // tiny-moe's shared expert stays a dense MLP split over tp beside the whole routed experts (Megatron-Core's
  // SharedExpertMLP over the tp group): accepted.
  const RunSpec shared = load_run(write_yaml("fold-shared.yaml", run_yaml_of_model("tiny-moe", "strategy: {tp: 2, dp: 4, ep: 4, expert_tp: 1, sequence_parallel: true}")));
  CHECK(shared.model.moe.shared_experts > 0);
  CHECK(shared.strategy.folds_experts());
  // tp 4 x pp 2 with dp 1 and ep 2: two expert replicas over the tp ranks alone, which no DP work reduces.
  const ConfigError alone = config_error([&] {
    (void)load_run(write_yaml("fold-dp1.yaml", run("strategy: {tp: 4, pp: 2, ep: 2, expert_tp: 1, sequence_parallel: true}")));
  });
  CHECK(alone.key_path() == "strategy.expert_tp");
  CHECK_THAT(alone.what(), Catch::Contains("over the tp ranks alone"));
}

TEST_CASE("deferred output weight gradients are refused beside EP overlap", "[config][ep_overlap]") {
  const ConfigError e = config_error([&] {
    (void)load_run(write_yaml("defer-ep.yaml", run_yaml_of_model("tiny-moe-routed",
        "strategy: {pp: 2, dp: 4, ep: 2, schedule: interleaved, virtual_stages: 2, defer_output_wgrad: 1, "
        "overlap: {ep_comm: true}}")));
  });
  CHECK(e.key_path() == "strategy.defer_output_wgrad");
  CHECK_THAT(e.what(), Catch::Contains("not modelled with EP overlap"));
}
