// The keys of a model file, read by model_loader.cpp and printed by `trainsim schema model`.
#include "sim/config/model_keys.hpp"

#include "sim/config/enum_names.hpp"
#include "sim/config/model_limits.hpp"
#include "sim/config/plausible_ranges.hpp"

namespace trainsim {
namespace {

using M = ModelSpec;
using E = MoeSpec;
using L = MlaSpec;

std::vector<KeyEntry<M>> model_entries() {
  const Need req = Need::kRequired, opt = Need::kOptional;
  return {
      string_key<M>("name", &M::name, req, "a non-empty string", "the preset's name"),
      string_key<M>("description", &M::description, opt, "a string", "one line for `trainsim list`", true),
      int_key<M>("layers", &M::layers, req, 1, kMaxLayers,
                 "transformer blocks (128x the deepest bundled model, Megatron-LM 1T's 128; every stage walks the "
                 "layers)"),
      int_key<M>("hidden", &M::hidden, req, 1, kMaxWidth, "model width h (4 x hidden, the default ffn_hidden, fits an int)"),
      int_key<M>("heads", &M::heads, req, 1, INT_MAX, "attention (query) heads"),
      int_key<M>("kv_heads", &M::kv_heads, opt, 0, INT_MAX, "key/value heads (GQA/MQA), dividing heads; 0 = heads"),
      int_key<M>("head_dim", &M::head_dim, opt, 0, INT_MAX, "width of one head; 0 = hidden / heads"),
      int_key<M>("ffn_hidden", &M::ffn_hidden, opt, 0, INT_MAX, "dense FFN width; 0 = 4 x hidden"),
      bool_key<M>("gated_ffn", &M::gated_ffn, opt, "SwiGLU-style: three FFN matrices instead of two"),
      int_key<M>("vocab", &M::vocab, req, 1, INT_MAX, "vocabulary size"),
      bool_key<M>("tied_embeddings", &M::tied_embeddings, opt, "the output layer shares the input embedding"),
      enum_key<M>("norm", &M::norm, opt, norm_names(), "normalisation of every block"),
      enum_key<M>("position_embedding", &M::position_embedding, opt, position_embedding_names(),
                  "rotary in every layer, a learned table added to the embedding, ALiBi (a bias inside the "
                  "score GEMM), or rotary with YaRN scaling (the same rotation; a framework may apply it unfused)"),
      int_key<M>("sliding_window", &M::sliding_window, opt, 0, INT_MAX,
                 "keys a query attends to at most (itself and those before it): sliding-window attention; 0 = full "
                 "causal attention"),
      int_key<M>("full_attention_every", &M::full_attention_every, opt, 0, INT_MAX,
                 "with sliding_window, every k-th layer (k, 2k, ... counting from 1) attends to the whole context "
                 "(GPT-OSS: 2); 0 = every layer windowed"),
      bool_key<M>("qk_norm", &M::qk_norm, opt,
                  "a norm over every query and key head before the rotary embedding (QK-norm: Qwen3, OLMo 2)"),
      custom_key<M>("moe", opt, "a map with the `moe.*` keys", "mixture of experts; absent or experts 0: dense"),
      int_key<M>("mtp_layers", &M::mtp_layers, opt, 0, kMaxLayers,
                 "multi-token prediction modules after the last layer (DeepSeek-V3: 1), each an embedding of the "
                 "shifted tokens, a 2h x h projection, one more layer of the last layer's kind and the shared "
                 "output head; 0 = none"),
      custom_key<M>("mla", opt, "a map with the `mla.*` keys",
                    "multi-head latent attention (DeepSeek-V2/V3); absent: standard attention"),
  };
}

std::vector<KeyEntry<E>> moe_entries() {
  const Need opt = Need::kOptional;
  return {
      int_key<E>("experts", &E::experts, opt, 0, kMaxExperts,
                 "routed experts per MoE layer; 0 = dense (the most published: PEER, He 2024, 1024^2)"),
      int_key<E>("top_k", &E::top_k, opt, 1, INT_MAX, "experts each token is routed to, at most experts"),
      int_key<E>("expert_ffn_hidden", &E::expert_ffn_hidden, opt, 0, kMaxWidth, "FFN width of one expert; 0 = ffn_hidden"),
      int_key<E>("shared_experts", &E::shared_experts, opt, 0, kMaxExperts,
                 "always-active experts (DeepSeek), each of expert_ffn_hidden"),
      int_key<E>("first_dense_layers", &E::first_dense_layers, opt, 0, INT_MAX,
                 "leading layers that keep a dense FFN (DeepSeek-V3: 3), fewer than layers"),
      int_key<E>("layer_frequency", &E::layer_frequency, opt, 1, INT_MAX, "every k-th layer after those is MoE (1 = all)"),
      number_key<E>("capacity_factor", &E::capacity_factor, opt, capacity_factor_range(),
                    "tokens an expert accepts, relative to an even share (1-2 in practice)"),
      bool_key<E>("expert_bias", &E::expert_bias, opt, "the experts' linear layers carry biases (GPT-OSS)"),
      number_key<E>("glu_clamp", &E::glu_clamp, opt, glu_clamp_range(),
                    "the experts' gated activation clamps its gate half to <= this and its linear half to [-this, "
                    "this] (GPT-OSS: 7); 0 = no clamp"),
  };
}

std::vector<KeyEntry<L>> mla_entries() {
  const Need req = Need::kRequired, opt = Need::kOptional;
  return {
      int_key<L>("q_lora_rank", &L::q_lora_rank, opt, 0, kMaxWidth,
                 "query latent width (DeepSeek-V3: 1536); 0 = queries projected straight from the hidden state"),
      int_key<L>("kv_lora_rank", &L::kv_lora_rank, req, 1, kMaxWidth, "key/value latent width (DeepSeek-V3: 512)"),
      int_key<L>("qk_head_dim", &L::qk_head_dim, req, 1, kMaxWidth,
                 "per head, the query/key width without the rotary part (DeepSeek-V3: 128)"),
      int_key<L>("qk_pos_emb_head_dim", &L::qk_pos_emb_head_dim, req, 1, kMaxWidth,
                 "per head, the rotary part of queries and keys, one shared key head (DeepSeek-V3: 64)"),
      int_key<L>("v_head_dim", &L::v_head_dim, req, 1, kMaxWidth, "per head, the value width (DeepSeek-V3: 128)"),
  };
}

}  // namespace

const KeyTable<ModelSpec>& model_keys() {
  static const KeyTable<ModelSpec> table(model_entries());
  return table;
}

const KeyTable<MlaSpec>& mla_keys() {
  static const KeyTable<MlaSpec> table(mla_entries());
  return table;
}

const KeyTable<MoeSpec>& moe_keys() {
  static const KeyTable<MoeSpec> table(moe_entries());
  return table;
}

}  // namespace trainsim
