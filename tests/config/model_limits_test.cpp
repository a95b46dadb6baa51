// A model's size is bounded when it is loaded (sim/config/model_limits.hpp), so that every count
// derived from it (parameters in int64, bytes, FLOPs) is exact and positive.
#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "sim/config/model_limits.hpp"
#include "sim/model/params.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

namespace {
// 2 layers, hidden 1024, 8 experts of ffn 4096 (gated: 3 matrices); lines 1-6, moe on line 6.
std::string moe_model(const std::string& moe) {
  return "name: m\nlayers: 2\nhidden: 1024\nheads: 16\nvocab: 1000\nmoe: " + moe + "\n";
}
}  // namespace

TEST_CASE("moe.experts past the published maximum is refused with its line", "[config][limits]") {
  // issue 18: experts 2147483647 overflowed the parameter total, and check printed a negative count.
  const auto file = write_yaml("experts.yaml", moe_model("{experts: 2147483647, top_k: 2}"));
  const ConfigError e = config_error([&] { (void)load_model(file.string()); });
  CHECK(e.key_path() == "moe.experts");
  CHECK(e.line() == 6);
  CHECK_THAT(e.what(), Catch::Contains("(got '2147483647'); valid: an integer in 0.." + std::to_string(kMaxExperts)));
}

TEST_CASE("a model of more parameters than the limit names its largest term", "[config][limits]") {
  // 2^20 experts * 2 matrices * hidden 1024 * expert ffn 2^20 = 2^51 ~ 2.3e15 per layer > 1e15.
  const auto file = write_yaml("big.yaml", moe_model("{experts: 1048576, top_k: 2, expert_ffn_hidden: 1048576}"));
  const ConfigError e = config_error([&] { (void)load_model(file.string()); });
  CHECK(e.key_path() == "moe.experts");
  CHECK(e.line() == 6);
  CHECK_THAT(e.what(), Catch::Contains("more than the limit of 1e+15"));
  // A dense model whose vocabulary dominates: 2 tables * vocab 2^31-1 * hidden 2^19 ~ 2.3e15.
  const auto dense = write_yaml("vocab.yaml", "name: m\nlayers: 2\nhidden: 524288\nheads: 16\nvocab: 2147483647\n");
  const ConfigError v = config_error([&] { (void)load_model(dense.string()); });
  CHECK(v.key_path() == "vocab");
  CHECK(v.line() == 5);
}

TEST_CASE("layers past the limit are refused before any per-layer work", "[config][limits]") {
  const auto file = write_yaml("deep.yaml", "name: m\nlayers: 2000000000\nhidden: 64\nheads: 1\nvocab: 10\n");
  const ConfigError e = config_error([&] { (void)load_model(file.string()); });
  CHECK(e.key_path() == "layers");
  CHECK(e.line() == 2);
  CHECK_THAT(e.what(), Catch::Contains("valid: an integer in 1.." + std::to_string(kMaxLayers)));
}

TEST_CASE("the largest MoE model the limits admit has a positive exact parameter count", "[config][limits]") {
  // experts 2^20, expert ffn 2^8, hidden 1024, 3 matrices: 3 * 2^10 * 2^8 * 2^20 = 3 * 2^38 per
  // layer, ~ 8.2e11; with 2 layers ~ 1.6e12, under 1e15. The int64 sum must equal it exactly.
  const auto file =
      write_yaml("wide.yaml", moe_model("{experts: 1048576, top_k: 2, expert_ffn_hidden: 256}") + "gated_ffn: true\n");
  const ModelSpec m = load_model(file.string());
  const ParamCount p = count_params(m);
  CHECK(p.moe_experts == 2LL * 3 * 1024 * 256 * 1048576);
  CHECK(p.total() > 0);
}

TEST_CASE("the size limit counts the MTP layers and MLA's projections", "[config][limits][mtp]") {
  // hidden 2^17 = 131,072, ffn 4h: 12 h^2 ~ 2.06e11 per layer. One layer fits; with 16,383 MTP layers of
  // the same kind 16,384 x 2.06e11 ~ 3.4e15 does not, and the FFN's width is the largest term.
  const std::string base = "name: m\nlayers: 1\nhidden: 131072\nheads: 16\nvocab: 1000\n";
  CHECK(load_model(write_yaml("one-layer.yaml", base).string()).layers == 1);
  const ConfigError e = config_error([&] { (void)load_model(write_yaml("mtp.yaml", base + "mtp_layers: 16383\n").string()); });
  CHECK(e.key_path() == "ffn_hidden");
  CHECK_THAT(e.what(), Catch::Contains("more than the limit of 1e+15"));
  // MLA: 2^17 x 2^28 query latent alone (3.5e13) per layer x 64 layers > 1e15; the attention term is named
  // by `hidden`, its width.
  const std::string mla = "name: m\nlayers: 64\nhidden: 131072\nheads: 16\nvocab: 1000\n"
                          "mla: {q_lora_rank: 268435456, kv_lora_rank: 16, qk_head_dim: 16, qk_pos_emb_head_dim: 8, v_head_dim: 16}\n";
  CHECK(config_error([&] { (void)load_model(write_yaml("mla-big.yaml", mla).string()); }).key_path() == "hidden");
}
