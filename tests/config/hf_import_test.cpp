// Models from Hugging Face config.json files (sim/config/hf_*): each supported model_type maps
// onto the model schema; what the schema cannot express becomes a note. Where the project has a
// preset of the same model, written from its paper or NeMo's port, the import must equal it.
#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "sim/config/model_writer.hpp"
#include "tests/config/config_test_support.hpp"
#include "tests/config/hf_configs.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

namespace {

const std::filesystem::path kModels = std::filesystem::path(TRAINSIM_TEST_DIR).parent_path() / "workloads/models";

// Writes <scratch>/<folder>/config.json.
std::filesystem::path write_config(const std::string& folder, const std::string& json) {
  std::filesystem::create_directories(scratch_dir() / folder);
  return write_yaml(folder + "/config.json", json);
}

ModelSpec import(const std::string& folder, const std::string& json) { return load_hf_model(write_config(folder, json)); }

bool has_note(const ModelSpec& m, const std::string& part) {
  for (const auto& n : m.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// Every field the schema has, compared (names and descriptions aside).
void check_same_shape(const ModelSpec& a, const ModelSpec& b) {
  CHECK(a.layers == b.layers);
  CHECK(a.hidden == b.hidden);
  CHECK(a.heads == b.heads);
  CHECK(a.kv_heads == b.kv_heads);
  CHECK(a.head_dim == b.head_dim);
  CHECK(a.ffn_hidden == b.ffn_hidden);
  CHECK(a.gated_ffn == b.gated_ffn);
  CHECK(a.vocab == b.vocab);
  CHECK(a.tied_embeddings == b.tied_embeddings);
  CHECK(a.norm == b.norm);
  CHECK(a.position_embedding == b.position_embedding);
  CHECK(a.qk_norm == b.qk_norm);
  CHECK(a.mla.q_lora_rank == b.mla.q_lora_rank);
  CHECK(a.mla.kv_lora_rank == b.mla.kv_lora_rank);
  CHECK(a.mla.qk_head_dim == b.mla.qk_head_dim);
  CHECK(a.mla.qk_pos_emb_head_dim == b.mla.qk_pos_emb_head_dim);
  CHECK(a.mla.v_head_dim == b.mla.v_head_dim);
  CHECK(a.mtp_layers == b.mtp_layers);
  CHECK(a.moe.experts == b.moe.experts);
  if (!a.is_moe()) return;
  CHECK(a.moe.top_k == b.moe.top_k);
  CHECK(a.moe.expert_ffn_hidden == b.moe.expert_ffn_hidden);
  CHECK(a.moe.shared_experts == b.moe.shared_experts);
  CHECK(a.moe.first_dense_layers == b.moe.first_dense_layers);
  CHECK(a.moe.layer_frequency == b.moe.layer_frequency);
  CHECK(a.moe.capacity_factor == b.moe.capacity_factor);
  CHECK(a.moe.expert_bias == b.moe.expert_bias);
  CHECK(a.moe.glu_clamp == b.moe.glu_clamp);
}

}  // namespace

TEST_CASE("Llama 3.1 8B's config.json imports as the llama3-8b preset, with no note", "[config][hf]") {
  const ModelSpec m = import("Llama-3.1-8B", kLlama31_8b);
  check_same_shape(m, load_model((kModels / "llama3-8b.yaml").string()));
  CHECK(m.name == "Llama-3.1-8B");  // the folder holding config.json
  CHECK(m.head_dim == 128);         // 4096 / 32: no head_dim key
  CHECK(m.position_embedding == PositionEmbedding::kRope);  // rope_scaling rope_type llama3: not YaRN
  CHECK(m.notes.empty());
}

TEST_CASE("Mixtral 8x7B imports as the mixtral-8x7b preset; Mistral 7B keeps its sliding window", "[config][hf]") {
  const ModelSpec mixtral = import("Mixtral-8x7B-v0.1", kMixtral8x7b);
  check_same_shape(mixtral, load_model((kModels / "mixtral-8x7b.yaml").string()));
  CHECK(mixtral.notes.empty());  // sliding_window: null
  const ModelSpec mistral = import("Mistral-7B-v0.1", kMistral7b);
  CHECK(mistral.layers == 32);
  CHECK(mistral.kv_heads == 8);
  CHECK(mistral.ffn_hidden == 14336);
  CHECK_FALSE(mistral.is_moe());
  CHECK(mistral.notes.empty());
  CHECK(mistral.sliding_window == 4096);  // every layer (no layer_types)
  CHECK(mistral.full_attention_every == 0);
  CHECK(mixtral.sliding_window == 0);
}

TEST_CASE("Qwen2 dense and MoE map their expert keys and note the Q/K/V biases and shared-expert gate", "[config][hf]") {
  const ModelSpec dense = import("Qwen2-7B", kQwen2_7b);
  CHECK(dense.hidden == 3584);
  CHECK(dense.head_dim == 128);  // 3584 / 28
  CHECK(dense.kv_heads == 4);
  CHECK(dense.vocab == 152064);
  CHECK(has_note(dense, "Q/K/V projection biases"));
  CHECK_FALSE(has_note(dense, "sliding"));  // use_sliding_window: false
  // Qwen1.5-MoE-A2.7B: 60 experts of 1408, top-4, one shared expert of 5632 = 4 x 1408.
  const ModelSpec moe = import("Qwen1.5-MoE-A2.7B", kQwen15MoeA27b);
  CHECK(moe.moe.experts == 60);
  CHECK(moe.moe.top_k == 4);
  CHECK(moe.moe.expert_ffn_hidden == 1408);
  CHECK(moe.moe.shared_experts == 4);
  CHECK(moe.moe.first_dense_layers == 0);  // decoder_sparse_step 1: every layer sparse
  CHECK(moe.moe.layer_frequency == 1);
  CHECK(moe.ffn_hidden == 5632);
  CHECK(has_note(moe, "sigmoid gate"));
  CHECK_FALSE(has_note(moe, "not a multiple"));
}

TEST_CASE("Qwen3 keeps its explicit head_dim and its QK-norm; Qwen3-30B-A3B equals its preset", "[config][hf]") {
  const ModelSpec dense = import("Qwen3-8B", kQwen3_8b);
  CHECK(dense.head_dim == 128);  // given: 4096 / 32 is also 128
  CHECK(dense.layers == 36);
  CHECK(dense.ffn_hidden == 12288);
  CHECK(dense.qk_norm);          // Qwen3Attention's q_norm and k_norm
  CHECK(dense.notes.empty());
  const ModelSpec moe = import("Qwen3-30B-A3B", kQwen3_30bA3b);
  check_same_shape(moe, load_model((kModels / "qwen3-30b-a3b.yaml").string()));
  CHECK(moe.head_dim == 128);  // given, unlike 2048 / 32 = 64
  CHECK(moe.qk_norm);
  CHECK_FALSE(import("Qwen2-7B", kQwen2_7b).qk_norm);
}

TEST_CASE("DeepSeek-V3 maps its latent attention, MoE layout and multi-token prediction and notes group routing",
          "[config][hf]") {
  const ModelSpec m = import("DeepSeek-V3", kDeepSeekV3);
  CHECK(m.layers == 61);
  CHECK(m.heads == 128);
  CHECK(m.kv_heads == 128);
  CHECK(m.mla.q_lora_rank == 1536);
  CHECK(m.mla.kv_lora_rank == 512);
  CHECK(m.mla.qk_head_dim == 128);         // qk_nope_head_dim
  CHECK(m.mla.qk_pos_emb_head_dim == 64);  // qk_rope_head_dim
  CHECK(m.mla.v_head_dim == 128);
  CHECK(m.head_dim == 192);  // a query/key head: 128 + 64
  CHECK(m.ffn_hidden == 18432);
  CHECK(m.moe.experts == 256);
  CHECK(m.moe.top_k == 8);
  CHECK(m.moe.expert_ffn_hidden == 2048);
  CHECK(m.moe.shared_experts == 1);
  CHECK(m.moe.first_dense_layers == 3);
  CHECK(m.moe.layer_frequency == 1);
  CHECK(m.mtp_layers == 1);  // num_nextn_predict_layers
  CHECK(m.notes.size() == 1);
  CHECK(has_note(m, "n_group 8, topk_group 4"));
  check_same_shape(m, load_model((kModels / "deepseek-v3.yaml").string()));
}

TEST_CASE("a latent-attention model without query compression imports with q_lora_rank 0", "[config][hf]") {
  std::string lite = kDeepSeekV3;
  const std::string key = "\"q_lora_rank\": 1536";
  lite.replace(lite.find(key), key.size(), "\"q_lora_rank\": null");
  const ModelSpec m = import("DeepSeek-V2-Lite-like", lite);
  CHECK(m.mla.q_lora_rank == 0);
  CHECK(m.mla.kv_lora_rank == 512);
  // Without its rotary width the latent attention is incomplete: refused at that key, not imported as 0.
  std::string no_rope = kDeepSeekV3;
  const std::string rope = "\"qk_rope_head_dim\": 64,";
  no_rope.replace(no_rope.find(rope), rope.size(), "");
  const ConfigError e = config_error([&] { (void)load_hf_model(write_config("norope", no_rope)); });
  CHECK(e.key_path() == "qk_rope_head_dim");
}

TEST_CASE("GPT-OSS 120B imports as the gpt-oss-120b preset with its alternating windows; notes its sinks", "[config][hf]") {
  const ModelSpec m = import("gpt-oss-120b", kGptOss120b);
  const ModelSpec preset = load_model((kModels / "gpt-oss-120b.yaml").string());
  check_same_shape(m, preset);
  // layer_types: sliding, full, sliding, full, ...: layers 2, 4, ... (counting from 1) are full.
  CHECK(m.sliding_window == 128);
  CHECK(m.full_attention_every == 2);
  CHECK(preset.sliding_window == m.sliding_window);
  CHECK(preset.full_attention_every == m.full_attention_every);
  CHECK_FALSE(has_note(m, "sliding"));
  CHECK(has_note(m, "attention sinks"));
  CHECK(has_note(m, "attention_bias: true"));
  // rope_scaling's rope_type yarn: YaRN (Llama 3.1's llama3 scaling stays plain RoPE, test above).
  CHECK(m.position_embedding == PositionEmbedding::kYarn);
  // Its experts carry biases, and swiglu_limit 7.0 clamps their GLU.
  CHECK(m.moe.expert_bias);
  CHECK(m.moe.glu_clamp == 7.0);
}

TEST_CASE("an unknown model_type is refused naming the file, the value and the supported list", "[config][hf]") {
  const auto file = write_config("falcon", R"({"model_type": "falcon", "hidden_size": 4544})");
  const ConfigError e = config_error([&] { (void)load_hf_model(file); });
  CHECK(e.file() == file.string());
  CHECK(e.line() == 1);
  CHECK(e.key_path() == "model_type");
  CHECK_THAT(e.what(), Catch::Contains("(got 'falcon')"));
  CHECK_THAT(e.what(), Catch::EndsWith(
                           "valid: llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, deepseek_v3, gpt_oss"));
}

TEST_CASE("a config.json missing a key or with a fractional one fails at that key", "[config][hf]") {
  std::string text = kLlama31_8b;
  text.replace(text.find("\"hidden_size\": 4096,"), 20, "");
  const ConfigError missing = config_error([&] { (void)load_hf_model(write_config("nohidden", text)); });
  CHECK(missing.key_path() == "hidden_size");
  CHECK_THAT(missing.what(), Catch::Contains("missing required key"));
  std::string frac = kLlama31_8b;
  frac.replace(frac.find("\"num_hidden_layers\": 32"), 23, "\"num_hidden_layers\": 32.5");
  const ConfigError fractional = config_error([&] { (void)load_hf_model(write_config("frac", frac)); });
  CHECK(fractional.key_path() == "num_hidden_layers");
  CHECK(fractional.line() == 5);
}

TEST_CASE("a run names an imported model with hf: and --set changes its keys", "[config][hf]") {
  (void)write_config("hfrun/Qwen3-8B", kQwen3_8b);
  std::string run = run_yaml("strategy: {tp: 8}");
  run.replace(run.find("model: "), run.find('\n', run.find("model: ")) - run.find("model: "), "model: hf:Qwen3-8B/config.json");
  const auto file = write_yaml("hfrun/run.yaml", run);
  const RunSpec r = load_run(file);
  CHECK(r.model.name == "Qwen3-8B");
  CHECK(r.model.layers == 36);
  CHECK(r.model.qk_norm);
  CHECK(load_run(file, {"model.layers=4"}).model.layers == 4);
  CHECK_FALSE(load_run(file, {"model.qk_norm=false"}).model.qk_norm);
  const ConfigError e = config_error([&] { (void)load_run(file, {"model=hf:missing/config.json"}); });
  CHECK(e.key_path() == "model");
}

TEST_CASE("an imported model written as YAML loads back into the same model, notes as comments", "[config][hf]") {
  const ModelSpec m = import("DeepSeek-V3", kDeepSeekV3);
  const std::string text = model_yaml(m, {"a header line"});
  CHECK(text.rfind("# a header line\n# What the source says that this schema cannot express", 0) == 0);
  for (const std::string& note : m.notes) CHECK(text.find("#  - " + note + "\n") != std::string::npos);
  const ModelSpec back = load_model(write_yaml("deepseek-v3-imported.yaml", text).string());
  check_same_shape(back, m);
  CHECK(back.name == m.name);
  CHECK(back.description == m.description);
  CHECK(back.notes.empty());  // a model YAML carries its notes as comments
}

TEST_CASE("a QK-norm model written as YAML keeps its qk_norm, and a model without one writes no key", "[config][hf]") {
  const ModelSpec qwen3 = import("Qwen3-8B", kQwen3_8b);
  const std::string text = model_yaml(qwen3, {});
  CHECK(text.find("qk_norm: true\n") != std::string::npos);
  CHECK(load_model(write_yaml("qwen3-8b-imported.yaml", text).string()).qk_norm);
  CHECK(model_yaml(import("Qwen2-7B", kQwen2_7b), {}).find("qk_norm") == std::string::npos);
}

TEST_CASE("a config file not named config.json is named by its stem, however its path is written", "[config][hf]") {
  (void)write_config("hf-named", kLlama31_8b);
  const std::filesystem::path file = scratch_dir() / "hf-named" / "my-llama.json";
  std::filesystem::copy_file(scratch_dir() / "hf-named" / "config.json", file,
                             std::filesystem::copy_options::overwrite_existing);
  CHECK(load_hf_model(file).name == "my-llama");  // not the folder, hf-named
  struct InFolder {  // back to the working folder however the block ends
    std::filesystem::path was = std::filesystem::current_path();
    explicit InFolder(const std::filesystem::path& to) { std::filesystem::current_path(to); }
    ~InFolder() { std::filesystem::current_path(was); }
  };
  std::string relative, config;
  {
    const InFolder in(file.parent_path());
    relative = load_hf_model("my-llama.json").name;
    config = load_hf_model("config.json").name;  // a checkpoint's: its folder
  }
  CHECK(relative == "my-llama");
  CHECK(config == "hf-named");
}
