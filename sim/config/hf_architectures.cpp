// How each supported Hugging Face `model_type` maps onto the model schema (ModelSpec). Key names
// are those of the transformers configuration classes (configuration_<type>.py); absent optional
// keys take those classes' defaults. Every family here is a pre-norm decoder with RMSNorm, rotary
// positions and a gated (SwiGLU-style) FFN. A feature the schema cannot express becomes a note.
#include <map>
#include <vector>

#include "sim/config/hf_config.hpp"
#include "sim/config/model_keys.hpp"
#include "sim/config/model_limits.hpp"
#include "sim/config/yaml_reader.hpp"

namespace trainsim {
namespace {

using Map = void (*)(const HfConfig&, HfModel&);

// Copies a validated whole number, keeping the JSON node (and with it its line for later errors).
void copy_int(const HfConfig& c, HfModel& out, const std::string& json_key, const char* model_key, int lo, int hi) {
  (void)c.integer(json_key, lo, hi);
  out.model[model_key] = c.root()[json_key];
}

// The keys every supported family shares (LlamaConfig's names).
// rope_scaling {rope_type (or type): "yarn", ...}: YaRN-scaled rotary embedding.
bool is_yarn(const HfConfig& c) {
  if (!c.has("rope_scaling") || !c.root()["rope_scaling"].IsMap()) return false;
  const YAML::Node s = c.root()["rope_scaling"];
  for (const char* key : {"rope_type", "type"})
    if (s[key] && s[key].IsScalar() && s[key].Scalar() == "yarn") return true;
  return false;
}

void map_decoder(const HfConfig& c, HfModel& out) {
  copy_int(c, out, "num_hidden_layers", "layers", 1, kMaxLayers);
  copy_int(c, out, "hidden_size", "hidden", 1, kMaxWidth);
  copy_int(c, out, "num_attention_heads", "heads", 1, kMaxWidth);
  if (c.has("num_key_value_heads")) copy_int(c, out, "num_key_value_heads", "kv_heads", 1, kMaxWidth);
  if (c.has("head_dim")) copy_int(c, out, "head_dim", "head_dim", 1, kMaxWidth);
  copy_int(c, out, "intermediate_size", "ffn_hidden", 1, kMaxWidth);
  copy_int(c, out, "vocab_size", "vocab", 1, kMaxWidth);
  out.model["gated_ffn"] = true;
  out.model["tied_embeddings"] = c.boolean_or("tie_word_embeddings", false);
  out.model["norm"] = "rmsnorm";
  out.model["position_embedding"] = is_yarn(c) ? "yarn" : "rope";
  if (c.boolean_or("attention_bias", false))
    out.notes.push_back("attention_bias: true: the Q/K/V/O projection biases are not modelled (one add per output)");
  if (c.boolean_or("mlp_bias", false))
    out.notes.push_back("mlp_bias: true: the FFN biases are not modelled (one add per output)");
}

void note_sliding_window(const HfConfig& c, HfModel& out, bool used) {
  if (!used || !c.has("sliding_window")) return;
  out.notes.push_back("sliding_window: " + c.text("sliding_window") +
                      ": sliding-window attention is modelled as full causal attention (slower beyond the window)");
}

// A positive number at `key`, or fails there.
double positive_number(const HfConfig& c, const std::string& key) {
  double v = 0;
  if (!YAML::convert<double>::decode(c.required(key, "a positive number"), v) || !(v > 0))
    c.fail(key, "is not a positive number", "a positive number");
  return v;
}

YAML::Node moe_node(int experts, int top_k, int expert_ffn, int shared, int first_dense, int frequency) {
  YAML::Node moe;
  moe["experts"] = experts;
  moe["top_k"] = top_k;
  moe["expert_ffn_hidden"] = expert_ffn;
  moe["shared_experts"] = shared;
  moe["first_dense_layers"] = first_dense;
  moe["layer_frequency"] = frequency;
  moe["capacity_factor"] = 1.0;  // dropless routing, taken as balanced
  return moe;
}

void map_llama(const HfConfig& c, HfModel& out) { map_decoder(c, out); }

// Mistral's sliding_window (null in Mixtral) applies to every layer.
void map_mistral(const HfConfig& c, HfModel& out) {
  map_decoder(c, out);
  if (c.has("sliding_window")) out.model["sliding_window"] = c.integer("sliding_window", 1);
}

void map_mixtral(const HfConfig& c, HfModel& out) {
  map_mistral(c, out);
  const int experts = c.integer("num_local_experts", 1, kMaxExperts);
  const int top_k = c.integer("num_experts_per_tok", 1, experts);
  out.model["moe"] = moe_node(experts, top_k, c.integer("intermediate_size", 1, kMaxWidth), 0, 0, 1);
}

// Qwen2 always has Q/K/V biases (Qwen2Attention: bias=True), whatever the config says.
void map_qwen2(const HfConfig& c, HfModel& out) {
  map_decoder(c, out);
  out.notes.push_back("Qwen2 attention has Q/K/V projection biases: not modelled (one add per output)");
  note_sliding_window(c, out, c.boolean_or("use_sliding_window", false));
}

// Qwen3 normalises each query and key head (QK-norm, Qwen3Attention's q_norm and k_norm) before the
// rotary embedding.
void map_qwen3(const HfConfig& c, HfModel& out) {
  map_decoder(c, out);
  out.model["qk_norm"] = true;
  note_sliding_window(c, out, c.boolean_or("use_sliding_window", false));
}

// Qwen MoE: layer i is sparse when (i + 1) % decoder_sparse_step == 0 and i is not in
// mlp_only_layers, i.e. first_dense_layers = step - 1 and layer_frequency = step.
YAML::Node qwen_moe(const HfConfig& c, HfModel& out, int shared) {
  const int experts = c.integer("num_experts", 1, kMaxExperts);
  const int top_k = c.integer("num_experts_per_tok", 1, experts);
  const int step = c.integer_or("decoder_sparse_step", 1, 1, kMaxLayers);
  if (c.has("mlp_only_layers") && c.root()["mlp_only_layers"].size() > 0)
    out.notes.push_back("mlp_only_layers: " + std::to_string(c.root()["mlp_only_layers"].size()) +
                        " layer(s) with a dense FFN instead of experts: modelled as MoE layers");
  return moe_node(experts, top_k, c.integer("moe_intermediate_size", 1, kMaxWidth), shared, step - 1, step);
}

void map_qwen2_moe(const HfConfig& c, HfModel& out) {
  map_qwen2(c, out);
  const int expert = c.integer("moe_intermediate_size", 1, kMaxWidth);
  const int shared_width = c.integer_or("shared_expert_intermediate_size", 0, 0, kMaxWidth);
  const int shared = (shared_width + expert / 2) / expert;  // one shared expert of k expert widths
  if (shared * expert != shared_width)
    out.notes.push_back("shared_expert_intermediate_size " + std::to_string(shared_width) + " is not a multiple of " +
                        "moe_intermediate_size " + std::to_string(expert) + ": modelled as " + std::to_string(shared) +
                        " shared expert(s) of " + std::to_string(expert));
  if (shared_width > 0)
    out.notes.push_back("the shared expert's sigmoid gate (a hidden x 1 projection) is not modelled");
  out.model["moe"] = qwen_moe(c, out, shared);
}

void map_qwen3_moe(const HfConfig& c, HfModel& out) {
  map_qwen3(c, out);
  out.model["moe"] = qwen_moe(c, out, 0);
}

// DeepSeek-V3: multi-head latent attention from its latent ranks and head widths (q_lora_rank null:
// queries projected straight from the hidden state, as DeepSeek-V2-Lite).
void map_deepseek_v3(const HfConfig& c, HfModel& out) {
  map_decoder(c, out);
  out.model.remove("head_dim");
  out.model.remove("kv_heads");
  YAML::Node mla;
  mla["q_lora_rank"] = c.integer_or("q_lora_rank", 0, 1, kMaxWidth);
  mla["kv_lora_rank"] = c.integer("kv_lora_rank", 1, kMaxWidth);
  mla["qk_head_dim"] = c.integer("qk_nope_head_dim", 1, kMaxWidth);
  mla["qk_pos_emb_head_dim"] = c.integer("qk_rope_head_dim", 1, kMaxWidth);
  mla["v_head_dim"] = c.integer("v_head_dim", 1, kMaxWidth);
  out.model["mla"] = mla;
  const int experts = c.integer("n_routed_experts", 1, kMaxExperts);
  const int top_k = c.integer("num_experts_per_tok", 1, experts);
  // Layer i is MoE when i >= first_k_dense_replace and i % moe_layer_freq == 0.
  const int first = c.integer_or("first_k_dense_replace", 0, 0, kMaxLayers);
  const int freq = c.integer_or("moe_layer_freq", 1, 1, kMaxLayers);
  const int first_moe = (first + freq - 1) / freq * freq;
  out.model["moe"] = moe_node(experts, top_k, c.integer("moe_intermediate_size", 1, kMaxWidth),
                              c.integer_or("n_shared_experts", 0, 0, kMaxExperts), first_moe, freq);
  if (const int mtp = c.integer_or("num_nextn_predict_layers", 0, 0, kMaxLayers); mtp > 0) out.model["mtp_layers"] = mtp;
  if (c.has("n_group"))
    out.notes.push_back("group-limited routing (n_group " + c.text("n_group") + ", topk_group " + c.text("topk_group") +
                        "): not modelled; routing is taken as balanced");
}

// layer_types ("sliding_attention" / "full_attention" per layer) as sliding_window and
// full_attention_every: full layers exactly at k-1, 2k-1, ... (k = 0: none); another pattern is noted.
void map_layer_windows(const HfConfig& c, HfModel& out) {
  if (!c.has("sliding_window")) return;
  std::vector<bool> full;
  for (const YAML::Node& t : c.root()["layer_types"]) full.push_back(t.IsScalar() && t.Scalar() == "full_attention");
  int every = 0;
  for (size_t i = 0; i < full.size() && every == 0; ++i)
    if (full[i]) every = static_cast<int>(i) + 1;
  for (size_t i = 0; i < full.size(); ++i) {
    if (full[i] == (every > 0 && (i + 1) % static_cast<size_t>(every) == 0)) continue;
    out.notes.push_back("layer_types: a pattern of sliding and full layers that is not every k-th layer full: "
                        "modelled as full causal attention in every layer");
    return;
  }
  out.model["sliding_window"] = c.integer("sliding_window", 1);
  out.model["full_attention_every"] = every;
}

// GPT-OSS: every layer is MoE; half the layers use a 128-token sliding window; attention sinks.
void map_gpt_oss(const HfConfig& c, HfModel& out) {
  map_decoder(c, out);
  const int experts = c.integer("num_local_experts", 1, kMaxExperts);
  const std::string top_key = c.has("num_experts_per_tok") ? "num_experts_per_tok" : "experts_per_token";
  const int top_k = c.integer(top_key, 1, experts);
  out.model["moe"] = moe_node(experts, top_k, c.integer("intermediate_size", 1, kMaxWidth), 0, 0, 1);
  // GptOssExperts always carries gate_up_proj_bias and down_proj_bias; swiglu_limit clamps its GLU.
  out.model["moe"]["expert_bias"] = true;
  if (c.has("swiglu_limit")) out.model["moe"]["glu_clamp"] = positive_number(c, "swiglu_limit");
  map_layer_windows(c, out);
  out.notes.push_back("attention sinks (a learned logit per head in the softmax): not modelled (elementwise)");
}

const std::map<std::string, Map>& architectures() {
  static const std::map<std::string, Map> all = {
      {"llama", map_llama},       {"mistral", map_mistral},     {"mixtral", map_mixtral},
      {"qwen2", map_qwen2},       {"qwen2_moe", map_qwen2_moe}, {"qwen3", map_qwen3},
      {"qwen3_moe", map_qwen3_moe}, {"deepseek_v3", map_deepseek_v3}, {"gpt_oss", map_gpt_oss}};
  return all;
}

}  // namespace

std::vector<std::string> supported_hf_model_types() {
  return {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "deepseek_v3", "gpt_oss"};
}

HfModel map_hf_config(const HfConfig& config) {
  HfModel out;
  out.model_type = config.model_type();
  const auto it = architectures().find(out.model_type);
  if (it == architectures().end())
    config.fail("model_type", "is not a supported architecture", join_names(supported_hf_model_types()));
  it->second(config, out);
  return out;
}

}  // namespace trainsim
