#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

TEST_CASE("a valid run loads with every field as written", "[config]") {
  const RunSpec r = load_run(fixtures() / "full-run.yaml");
  CHECK(r.name == "full-run");
  CHECK(r.description == "every run key set to a non-default value");
  CHECK(r.source_file == (fixtures() / "full-run.yaml").string());
  CHECK(r.model.name == "tiny-moe");
  CHECK(r.platform.name == "tiny-cluster");
  CHECK(r.devices == 32);
  CHECK(r.precision == Precision::kFp32);
  CHECK(r.seq_len == 4096);
  CHECK(r.global_batch == 64);
  CHECK(r.micro_batch == 2);
  const StrategySpec& s = r.strategy;
  CHECK(s.tp == 2);
  CHECK(s.pp == 2);
  CHECK(s.dp == 4);
  CHECK(s.cp == 2);
  CHECK(s.ep == 4);
  CHECK(s.sequence_parallel);
  CHECK(s.schedule == "interleaved");
  CHECK(s.virtual_stages == 2);
  CHECK(s.zero_stage == 3);
  CHECK(s.recompute == Recompute::kSelective);
  CHECK(s.recompute_modules.core_attn);
  CHECK(s.recompute_modules.moe_act);
  CHECK_FALSE(s.recompute_modules.layernorm);
  CHECK_FALSE(s.recompute_modules.mlp);
  CHECK(s.recompute_layers == 2);
  CHECK(s.offload == Offload::kOptimizer);
  CHECK(s.grad_bucket_size == 25.0 * 1024 * 1024);  // 25 MiB
  CHECK(s.grad_precision == Precision::kBf16);
  CHECK_FALSE(s.grad_accumulation_fusion);
  CHECK(s.mesh_order == "tp-ep-cp-dp-pp");
  CHECK(s.keep_in_domain == std::vector<std::string>{"tp"});
  CHECK_FALSE(s.overlap.dp_grad_reduce);
  CHECK_FALSE(s.overlap.zero_param_gather);
  CHECK(s.overlap.tp_comm);
  CHECK_FALSE(s.overlap.pp_comm);
  const std::map<std::string, std::string> collectives = {{"tp", "ring"}, {"dp", "hierarchical"}, {"ep", "direct"}};
  CHECK(r.collectives == collectives);
  CHECK(r.framework_overhead == 1.5 * 1024 * 1024 * 1024);  // 1.5 GiB
  CHECK(r.microbatches() == 8);  // 64 / (dp 4 * micro_batch 2)
}

TEST_CASE("run keys left out keep the struct defaults", "[config]") {
  const RunSpec r = load_run(write_yaml("defaults-run.yaml", run_yaml("strategy: {tp: 4, dp: 2}")));
  const StrategySpec d;
  CHECK(r.micro_batch == 1);
  CHECK(r.strategy.pp == 1);
  CHECK(r.strategy.cp == 1);
  CHECK(r.strategy.ep == 1);
  CHECK(r.strategy.schedule == d.schedule);
  CHECK(r.strategy.zero_stage == d.zero_stage);
  CHECK(r.strategy.grad_bucket_size == d.grad_bucket_size);
  CHECK(r.strategy.grad_precision == std::nullopt);
  CHECK(r.strategy.grad_accumulation_fusion);  // Megatron's default on CUDA: fused
  CHECK(r.strategy.mesh_order == d.mesh_order);
  CHECK(r.strategy.overlap.dp_grad_reduce == d.overlap.dp_grad_reduce);
  CHECK(r.strategy.overlap.tp_comm == d.overlap.tp_comm);
  CHECK(r.collectives.empty());
  CHECK(r.framework_overhead == 0);
}

TEST_CASE("model and platform preset names resolve under TRAINSIM_DATA_DIR", "[config]") {
  ScopedDataDir data(fixture_data());
  CHECK(data_dir() == fixture_data());
  const RunSpec r = load_run(fixture_data() / "workloads/tiny-run.yaml");
  CHECK(r.model.name == "tiny-dense");
  CHECK(r.model.source_file == (fixture_data() / "workloads/models/tiny-dense.yaml").string());
  CHECK(r.platform.source_file == (fixture_data() / "platforms/tiny-cluster.yaml").string());
  CHECK(r.model.kv_heads == 4);
  CHECK(r.model.head_dim == 32);   // 256 / 8
  CHECK(r.model.ffn_hidden == 1024);  // 4 * 256
  CHECK(load_platform("mesh-box").name == "mesh-box");
  CHECK(load_model("tiny-moe").moe.experts == 8);
}

TEST_CASE("relative model and platform paths resolve against the run file's folder", "[config]") {
  // full-run.yaml says "model: data/workloads/models/tiny-moe.yaml", relative to fixtures/,
  // not to the working directory.
  const RunSpec r = load_run(fixtures() / "full-run.yaml");
  CHECK(r.model.source_file == (fixtures() / "data/workloads/models/tiny-moe.yaml").string());
}

TEST_CASE("an unknown preset name lists the presets there are", "[config]") {
  ScopedDataDir data(fixture_data());
  const auto file = write_yaml("unknown-preset.yaml", "name: r\nmodel: tiny-dense\nplatform: dgx-a100\ndevices: 8\n"
                                                      "precision: bf16\nseq_len: 2048\nglobal_batch: 16\n"
                                                      "strategy: {tp: 4, dp: 2}\n");
  const ConfigError e = config_error([&] { (void)load_run(file); });
  CHECK(e.file() == file.string());
  CHECK(e.line() == 3);
  CHECK(e.key_path() == "platform");
  CHECK_THAT(e.what(), Catch::EndsWith("platform: unknown platform preset (got 'dgx-a100'); "
                                       "valid: mesh-box, tiny-cluster, tiny-fp8-cluster, unreadable"));
  const ConfigError standalone = config_error([] { (void)load_model("llama-9000"); });
  CHECK(standalone.key_path() == "model");
  CHECK_THAT(standalone.what(), Catch::EndsWith("(got 'llama-9000'); valid: tiny-dense, tiny-moe-routed, tiny-moe"));
}

TEST_CASE("a key with an empty value is reported at the key's own line, not the next one", "[config]") {
  // `model:` on line 2 with nothing after it: yaml-cpp places the empty value where the next token
  // (line 3) begins.
  const auto file = write_yaml("empty-model.yaml", "name: r\nmodel:\nplatform: tiny-cluster\ndevices: 8\n"
                                                   "precision: bf16\nseq_len: 2048\nglobal_batch: 16\n"
                                                   "strategy: {tp: 4, dp: 2}\n");
  const ConfigError e = config_error([&] { (void)load_run(file); });
  CHECK(e.key_path() == "model");
  CHECK(e.line() == 2);
}

TEST_CASE("a run names a missing file with the path it looked for", "[config]") {
  const std::string text = "name: r\nmodel: models/none.yaml\n" + run_yaml().substr(run_yaml().find("platform:"));
  const auto run = write_yaml("missing-model.yaml", text);
  const ConfigError e = config_error([&] { (void)load_run(run); });
  CHECK(e.line() == 2);
  CHECK(e.key_path() == "model");
  CHECK_THAT(e.what(), Catch::Contains("model file not found (got 'models/none.yaml')") &&
                           Catch::Contains("looked for " + (run.parent_path() / "models/none.yaml").string()));
  const ConfigError no_run = config_error([] { (void)load_run("/nonexistent/run.yaml"); });
  CHECK(no_run.file() == "/nonexistent/run.yaml");
  CHECK(no_run.key_path() == "(file)");
}

TEST_CASE("collectives are keyed by parallel dimension and name an algorithm that runs the group's collectives", "[config]") {
  // Checked at load time (issue 18: an unknown name passed `check` and aborted the replay).
  const auto ok = write_yaml("coll.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "collectives: {tp: tree, cp: ring}\n"));
  CHECK(load_run(ok).collectives.at("tp") == "tree");  // tp without SP runs all-reduce only: tree can
  const auto sp = write_yaml("coll-sp.yaml", run_yaml("strategy: {tp: 4, dp: 2, sequence_parallel: true}",
                                                       "collectives: {tp: tree}\n"));
  const ConfigError no_rs = config_error([&] { (void)load_run(sp); });  // with SP: reduce-scatter + all-gather
  CHECK(no_rs.key_path() == "collectives.tp");
  CHECK_THAT(no_rs.what(), Catch::Contains("(got 'tree'); valid: ring, hierarchical, direct, nvls"));
  const auto unknown = write_yaml("coll-unknown.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "collectives: {pp: anything}\n"));
  CHECK(config_error([&] { (void)load_run(unknown); }).key_path() == "collectives.pp");
  const auto bad = write_yaml("coll-bad.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "collectives: {mp: ring}\n"));
  const ConfigError e = config_error([&] { (void)load_run(bad); });
  CHECK(e.line() == 9);
  CHECK(e.key_path() == "collectives.mp");
  CHECK_THAT(e.what(), Catch::EndsWith("unknown key (got 'mp'); valid: tp, cp, ep, dp, pp"));
}

TEST_CASE("grad_precision names a gradient precision or auto", "[config]") {
  const auto bad = write_yaml("gradp.yaml", run_yaml("strategy: {tp: 4, dp: 2, grad_precision: fp8}"));
  const ConfigError e = config_error([&] { (void)load_run(bad); });
  CHECK(e.key_path() == "strategy.grad_precision");
  CHECK_THAT(e.what(), Catch::Contains("(got 'fp8')") && Catch::Contains("auto, fp32, bf16, fp16"));
}

TEST_CASE("grad_accumulation_fusion takes a boolean", "[config]") {
  const auto bad =
      write_yaml("gradacc.yaml", run_yaml("strategy: {tp: 4, dp: 2, grad_accumulation_fusion: maybe}"));
  const ConfigError e = config_error([&] { (void)load_run(bad); });
  CHECK(e.key_path() == "strategy.grad_accumulation_fusion");
  CHECK_THAT(e.what(), Catch::Contains("(got 'maybe')"));
}

TEST_CASE("mesh_order must be a permutation of the five dimensions", "[config]") {
  const auto bad = write_yaml("mesh.yaml", run_yaml("strategy: {tp: 4, dp: 2, mesh_order: tp-cp-ep-dp-dp}"));
  const ConfigError e = config_error([&] { (void)load_run(bad); });
  CHECK(e.line() == 8);
  CHECK(e.key_path() == "strategy.mesh_order");
  CHECK_THAT(e.what(), Catch::Contains("(got 'tp-cp-ep-dp-dp')"));
  const auto ok = write_yaml("mesh-ok.yaml", run_yaml("strategy: {tp: 4, dp: 2, mesh_order: pp-dp-ep-cp-tp}"));
  CHECK(load_run(ok).strategy.mesh_order == "pp-dp-ep-cp-tp");
}

TEST_CASE("dropout takes attention and hidden probabilities below one, default off", "[config]") {
  const auto ok = write_yaml("drop.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "dropout: {attention: 0.1, hidden: 0.05}\n"));
  const RunSpec run = load_run(ok);
  CHECK(run.dropout.attention == 0.1);
  CHECK(run.dropout.hidden == 0.05);
  const auto none = write_yaml("nodrop.yaml", run_yaml("strategy: {tp: 4, dp: 2}"));
  CHECK_FALSE(load_run(none).dropout.any());
  const auto bad = write_yaml("baddrop.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "dropout: {attention: 1.0}\n"));
  const ConfigError e = config_error([&] { (void)load_run(bad); });
  CHECK(e.key_path() == "dropout.attention");
  const auto typo = write_yaml("typodrop.yaml", run_yaml("strategy: {tp: 4, dp: 2}", "dropout: {residual: 0.1}\n"));
  CHECK_THAT(config_error([&] { (void)load_run(typo); }).what(), Catch::Contains("valid: attention, hidden"));
}

namespace {
// run_yaml() on the FP8 fixture platform, in `precision`, with `fp8` lines appended.
std::string fp8_run_yaml(const std::string& precision, const std::string& fp8) {
  std::string text = run_yaml("strategy: {tp: 4, dp: 2}", fp8);
  const std::string from = "platforms/tiny-cluster.yaml", to = "platforms/tiny-fp8-cluster.yaml";
  text.replace(text.find(from), from.size(), to);
  text.replace(text.find("precision: bf16"), std::string("precision: bf16").size(), "precision: " + precision);
  return text;
}
}  // namespace

TEST_CASE("an fp8 run takes delayed scaling unless it names current scaling", "[config][fp8]") {
  const RunSpec plain = load_run(write_yaml("fp8-plain.yaml", fp8_run_yaml("fp8", "")));
  CHECK(plain.fp8.recipe == Fp8Recipe::kDelayed);
  CHECK_FALSE(plain.fp8.param_gather);
  const RunSpec cs = load_run(write_yaml("fp8-cs.yaml", fp8_run_yaml("fp8", "fp8: {recipe: current, param_gather: true}")));
  CHECK(cs.fp8.recipe == Fp8Recipe::kCurrent);
  CHECK(cs.fp8.param_gather);
}

TEST_CASE("an fp8 recipe that does not match the precision names both", "[config][fp8]") {
  const auto bad = write_yaml("fp8-mx.yaml", fp8_run_yaml("fp8", "fp8: {recipe: mxfp8}"));
  const ConfigError e = config_error([&] { (void)load_run(bad); });
  CHECK(e.key_path() == "fp8.recipe");
  CHECK_THAT(e.what(), Catch::Contains("(got 'mxfp8')") && Catch::Contains("delayed or current"));
  const auto typo = write_yaml("fp8-typo.yaml", fp8_run_yaml("fp8", "fp8: {recipe: delay}"));
  CHECK_THAT(config_error([&] { (void)load_run(typo); }).what(), Catch::Contains("delayed, current, mxfp8"));
}
