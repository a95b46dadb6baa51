// A model architecture, as plain data parsed from workloads/models/*.yaml (keys = field names).
// Sequence length is not here: it belongs to the run.
#pragma once
#include <string>
#include <vector>

namespace trainsim {

enum class NormKind { kLayerNorm, kRmsNorm };
// How token positions enter the model: rotary embeddings applied to Q and K in every layer
// (Llama, most models since 2022), or a learned absolute table added to the token embedding
// (GPT-2/3 and Megatron-LM's default, --position-embedding-type learned_absolute), or ALiBi
// (Press et al. 2022, arXiv 2108.12409; BLOOM): no table and no kernel of its own; a fixed
// per-head bias is added to the attention scores inside the score GEMM (Megatron-DeepSpeed's
// baddbmm with beta = 1, reading one row of s biases per head, broadcast over the queries):
// the score GEMM's own cost, which the attention kernels already count, is all it adds.
// kYarn: rotary with YaRN's frequency scaling and attention scale (GPT-OSS, DeepSeek-V3): the same rotation.
enum class PositionEmbedding { kRope, kLearned, kAlibi, kYarn };

struct MoeSpec {
  int experts = 0;                 // routed experts per MoE layer (0 = dense model)
  int top_k = 1;                   // experts each token is routed to
  int expert_ffn_hidden = 0;       // FFN hidden size of one expert
  int shared_experts = 0;          // always-active experts (DeepSeek), each of expert_ffn_hidden
  int first_dense_layers = 0;      // leading layers that keep a dense FFN (DeepSeek-V3: 3)
  int layer_frequency = 1;         // every k-th layer after those is MoE (1 = all)
  double capacity_factor = 1.0;    // tokens an expert accepts, relative to an even share
  bool expert_bias = false;        // the experts' linear layers carry biases (GPT-OSS: add_bias_linear)
  double glu_clamp = 0;            // the gated activation clamps its gate half to <= this and its
                                   // linear half to [-this, this] (GPT-OSS: 7); 0 = no clamp
};

// Multi-head latent attention (DeepSeek-V2/V3; Megatron-Core's MLATransformerConfig, whose names these
// are): queries and keys/values are projected down to low-rank latents, normalised, and projected up
// per head; each query/key head is qk_head_dim wide plus a rotary part of qk_pos_emb_head_dim shared by
// every head's key, each value head v_head_dim. kv_lora_rank 0 = standard attention.
struct MlaSpec {
  int q_lora_rank = 0;             // query latent width; 0 = queries projected straight from the hidden state
  int kv_lora_rank = 0;            // key/value latent width
  int qk_head_dim = 0;             // per head, the query/key part without the rotary embedding
  int qk_pos_emb_head_dim = 0;     // per head, the rotary part (the key's is one shared head)
  int v_head_dim = 0;              // per head, the value (and attention output) width
};

struct ModelSpec {
  std::string name;
  std::string description;
  std::string source_file;
  int layers = 0;                  // transformer blocks
  int hidden = 0;                  // model width h
  int heads = 0;                   // attention (query) heads a
  int kv_heads = 0;                // key/value heads (GQA/MQA); 0 in YAML means = heads
  int head_dim = 0;                // 0 in YAML means hidden / heads (with MLA: its query/key head width)
  int ffn_hidden = 0;              // dense FFN width; 0 in YAML means 4 * hidden
  bool gated_ffn = false;          // SwiGLU-style: three FFN matrices instead of two
  int vocab = 0;                   // vocabulary size V
  bool tied_embeddings = false;    // output layer shares the input embedding
  NormKind norm = NormKind::kLayerNorm;
  PositionEmbedding position_embedding = PositionEmbedding::kRope;
  // Sliding-window attention (Mistral 7B, GPT-OSS): a query attends to at most this many keys,
  // itself and the ones before it; 0 = full causal attention.
  int sliding_window = 0;
  // With a sliding window, every k-th layer (the k-th, 2k-th, ..., counting from 1) attends to the
  // whole context instead (GPT-OSS: 2, Megatron-Core's window_attn_skip_freq); 0 = every layer windowed.
  int full_attention_every = 0;
  // A norm (the model's `norm`) over every query and key head after the QKV projection, before the
  // rotary embedding: QK-norm (Qwen3, OLMo 2; Megatron-Core --qk-layernorm).
  bool qk_norm = false;
  MoeSpec moe;                     // moe.experts == 0 for dense models
  MlaSpec mla;                     // mla.kv_lora_rank == 0 for standard (multi-, grouped-query) attention
  // Multi-token prediction depth (DeepSeek-V3: 1; Megatron-Core --mtp-num-layers): after the last layer, each
  // MTP module embeds the tokens shifted once more, normalises that embedding and the previous hidden state,
  // projects their concatenation (2h -> h), runs one more transformer layer (of the last layer's kind) and
  // the shared output head with a loss of its own. 0 = none.
  int mtp_layers = 0;
  // What the model's source said that this schema cannot express, and how it is taken instead
  // (a Hugging Face config.json's MLA, sliding windows, ...; sim/config/hf_architectures.cpp).
  // Empty for model YAML files: their comments say it.
  std::vector<std::string> notes;
  bool is_moe() const { return moe.experts > 0; }
  bool is_mla() const { return mla.kv_lora_rank > 0; }
};

}  // namespace trainsim
