#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

TEST_CASE("model defaults: kv_heads = heads, head_dim = hidden/heads, ffn_hidden = 4*hidden", "[config]") {
  const auto file = write_yaml("defaults-model.yaml",
                               "name: m\n"
                               "layers: 2\n"
                               "hidden: 1024\n"
                               "heads: 16\n"
                               "vocab: 50000\n");
  const ModelSpec m = load_model(file.string());
  CHECK(m.name == "m");
  CHECK(m.source_file == file.string());
  CHECK(m.kv_heads == 16);          // = heads
  CHECK(m.head_dim == 64);          // 1024 / 16
  CHECK(m.ffn_hidden == 4096);      // 4 * 1024
  CHECK_FALSE(m.gated_ffn);
  CHECK_FALSE(m.tied_embeddings);
  CHECK(m.norm == NormKind::kLayerNorm);
  CHECK_FALSE(m.is_moe());
  CHECK(m.description.empty());
}

TEST_CASE("a model with every key written loads each value as written", "[config]") {
  const ModelSpec m = load_model((fixture_data() / "workloads/models/tiny-moe.yaml").string());
  CHECK(m.name == "tiny-moe");
  CHECK(m.description == "8 layers, 8 experts, top-2");
  CHECK(m.layers == 8);
  CHECK(m.hidden == 512);
  CHECK(m.heads == 8);
  CHECK(m.kv_heads == 2);
  CHECK(m.head_dim == 80);  // written, so not hidden/heads = 64
  CHECK(m.ffn_hidden == 1536);
  CHECK(m.gated_ffn);
  CHECK(m.vocab == 32000);
  CHECK(m.tied_embeddings);
  CHECK(m.norm == NormKind::kRmsNorm);
  REQUIRE(m.is_moe());
  CHECK(m.moe.experts == 8);
  CHECK(m.moe.top_k == 2);
  CHECK(m.moe.expert_ffn_hidden == 768);
  CHECK(m.moe.shared_experts == 1);
  CHECK(m.moe.first_dense_layers == 1);
  CHECK(m.moe.layer_frequency == 2);
  CHECK(m.moe.capacity_factor == 1.25);
}

TEST_CASE("an MoE model without expert_ffn_hidden uses the dense ffn_hidden", "[config]") {
  const auto file = write_yaml("moe-default.yaml",
                               "name: m\nlayers: 2\nhidden: 256\nheads: 4\nvocab: 100\nmoe: {experts: 4}\n");
  const ModelSpec m = load_model(file.string());
  CHECK(m.moe.expert_ffn_hidden == 1024);  // ffn_hidden default 4 * 256
  CHECK(m.moe.top_k == 1);
  CHECK(m.moe.capacity_factor == 1.0);
}

TEST_CASE("hidden must split over heads when head_dim is not given", "[config]") {
  const auto file = write_yaml("bad-hidden.yaml", "name: m\nlayers: 2\nhidden: 1000\nheads: 16\nvocab: 100\n");
  const ConfigError e = config_error([&] { (void)load_model(file.string()); });
  CHECK(e.line() == 3);
  CHECK(e.key_path() == "hidden");
  // 1000 / 16 = 62.5; the neighbouring multiples of 16 are 62*16 = 992 and 63*16 = 1008.
  CHECK(std::string(e.what()) == file.string() +
                                     ":3: hidden: must be divisible by heads (16) when head_dim is not given "
                                     "(got '1000'); valid: a multiple of 16 (e.g. 992 or 1008), or set head_dim");
  // With head_dim written, hidden need not be a multiple of heads.
  const auto ok = write_yaml("head-dim.yaml", "name: m\nlayers: 2\nhidden: 1000\nheads: 16\nhead_dim: 64\nvocab: 100\n");
  CHECK(load_model(ok.string()).head_dim == 64);
}

TEST_CASE("kv_heads must divide heads, and the divisors of heads are listed", "[config]") {
  const auto file = write_yaml("bad-kv.yaml", "name: m\nlayers: 2\nhidden: 768\nheads: 12\nkv_heads: 5\nvocab: 100\n");
  const ConfigError e = config_error([&] { (void)load_model(file.string()); });
  CHECK(e.line() == 5);
  CHECK(e.key_path() == "kv_heads");
  CHECK_THAT(e.what(), Catch::EndsWith("must divide heads (12) (got '5'); valid: 1, 2, 3, 4, 6, 12"));
}

TEST_CASE("a model without a required key names the key and its expected type", "[config]") {
  const auto file = write_yaml("no-vocab.yaml", "name: m\nlayers: 2\nhidden: 768\nheads: 12\n");
  const ConfigError e = config_error([&] { (void)load_model(file.string()); });
  CHECK(e.key_path() == "vocab");
  CHECK(e.line() == 1);
  CHECK_THAT(e.what(), Catch::EndsWith("vocab: missing required key; valid: an integer >= 1"));
}

TEST_CASE("booleans are true or false, and norm is layernorm or rmsnorm", "[config]") {
  const auto yes = write_yaml("yes.yaml", "name: m\nlayers: 2\nhidden: 64\nheads: 4\nvocab: 10\ngated_ffn: yes\n");
  const ConfigError b = config_error([&] { (void)load_model(yes.string()); });
  CHECK(b.key_path() == "gated_ffn");
  CHECK_THAT(b.what(), Catch::EndsWith(":6: gated_ffn: expected a boolean (got 'yes'); valid: true, false"));
  const auto norm = write_yaml("norm.yaml", "name: m\nlayers: 2\nhidden: 64\nheads: 4\nvocab: 10\nnorm: batchnorm\n");
  const ConfigError n = config_error([&] { (void)load_model(norm.string()); });
  CHECK(n.key_path() == "norm");
  CHECK_THAT(n.what(), Catch::EndsWith("(got 'batchnorm'); valid: layernorm, rmsnorm"));
}

TEST_CASE("a model key holding a list where a number belongs is a type error", "[config]") {
  const auto file = write_yaml("list.yaml", "name: m\nlayers: [1, 2]\nhidden: 64\nheads: 4\nvocab: 10\n");
  const ConfigError e = config_error([&] { (void)load_model(file.string()); });
  CHECK(e.line() == 2);
  CHECK(e.key_path() == "layers");
  CHECK_THAT(e.what(), Catch::EndsWith("expected a single value (got 'a list'); valid: an integer in 1..16384"));
}

TEST_CASE("MoE routing cannot pick more experts than exist, and leaves some MoE layer", "[config]") {
  const std::string base = "name: m\nlayers: 4\nhidden: 64\nheads: 4\nvocab: 10\n";
  const auto topk = write_yaml("topk.yaml", base + "moe: {experts: 4, top_k: 5}\n");
  const ConfigError t = config_error([&] { (void)load_model(topk.string()); });
  CHECK(t.key_path() == "moe.top_k");
  CHECK_THAT(t.what(), Catch::EndsWith("(got '5'); valid: an integer in 1..4"));
  const auto dense = write_yaml("dense-first.yaml", base + "moe: {experts: 4, first_dense_layers: 4}\n");
  const ConfigError d = config_error([&] { (void)load_model(dense.string()); });
  CHECK(d.key_path() == "moe.first_dense_layers");
  CHECK_THAT(d.what(), Catch::EndsWith("(got '4'); valid: an integer in 0..3"));
}

TEST_CASE("a YAML syntax error names the file and the line of the fault", "[config]") {
  const auto file = write_yaml("syntax.yaml", "name: m\nlayers: 2\nhidden: [64\nheads: 4\n");
  const ConfigError e = config_error([&] { (void)load_model(file.string()); });
  CHECK(e.file() == file.string());
  CHECK(e.key_path() == "(syntax)");
  CHECK(e.line() >= 3);  // the unclosed list opens on line 3; the parser notices at or after it
}

TEST_CASE("a key written twice in one map is an error at its second occurrence", "[config]") {
  const auto file = write_yaml("twice.yaml", "name: m\nlayers: 2\nhidden: 64\nheads: 4\nlayers: 3\nvocab: 10\n");
  const ConfigError e = config_error([&] { (void)load_model(file.string()); });
  CHECK(e.line() == 5);
  CHECK(e.key_path() == "layers");
  CHECK_THAT(e.what(), Catch::EndsWith("key appears twice in this map (got 'layers'); valid: each key once"));
}

TEST_CASE("full_attention_every needs a sliding window for the other layers", "[config][window]") {
  const auto file =
      write_yaml("every.yaml", "name: m\nlayers: 2\nhidden: 64\nheads: 4\nvocab: 10\nfull_attention_every: 2\n");
  const ConfigError e = config_error([&] { (void)load_model(file.string()); });
  CHECK(e.key_path() == "full_attention_every");
  CHECK_THAT(e.what(), Catch::EndsWith("needs a sliding_window for the other layers (got '2'); valid: 0, or set "
                                       "sliding_window (keys per query) as well"));
  const auto ok = write_yaml("window.yaml", "name: m\nlayers: 2\nhidden: 64\nheads: 4\nvocab: 10\nsliding_window: 16\n"
                                            "full_attention_every: 2\n");
  CHECK(load_model(ok.string()).sliding_window == 16);
}

TEST_CASE("an mla block sets kv_heads to heads and head_dim to the query/key head width", "[config][mla]") {
  const std::string base = "name: m\nlayers: 2\nhidden: 256\nheads: 8\nvocab: 100\n";
  const std::string mla = "mla: {q_lora_rank: 64, kv_lora_rank: 32, qk_head_dim: 16, qk_pos_emb_head_dim: 8, v_head_dim: 16}\n";
  const ModelSpec m = load_model(write_yaml("mla.yaml", base + mla).string());
  CHECK(m.is_mla());
  CHECK(m.kv_heads == 8);
  CHECK(m.head_dim == 24);  // 16 + 8
  CHECK(m.mla.v_head_dim == 16);
  // A head_dim other than 16 + 8 contradicts the block.
  const auto wrong = write_yaml("mla-head-dim.yaml", base + "head_dim: 32\n" + mla);
  const ConfigError d = config_error([&] { (void)load_model(wrong.string()); });
  CHECK(d.key_path() == "head_dim");
  CHECK_THAT(d.what(), Catch::EndsWith("(got '32'); valid: 0 or 24"));
  // QK-norm normalises standard attention's heads; MLA normalises its latents.
  const auto qk = write_yaml("mla-qk-norm.yaml", base + "qk_norm: true\n" + mla);
  CHECK(config_error([&] { (void)load_model(qk.string()); }).key_path() == "qk_norm");
}
