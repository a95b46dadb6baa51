#include "sim/model/model_flops.hpp"

#include "sim/model/layer_ops.hpp"
#include "sim/model/mla_ops.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {
namespace {

// Megatron-LM's attention term per token and layer, in multiply-adds (times 6 for forward and backward).
double megatron_lm_attention_term(const ModelSpec& m, double s) {
  const double h = m.hidden, n = m.heads;
  if (!m.is_mla()) {
    const double q = n * static_cast<double>(head_dim_of(m));
    const double k = static_cast<double>(kv_heads_of(m)) * static_cast<double>(head_dim_of(m));
    return h * (q + 2 * k) + q * h + q * s;
  }
  const MlaSpec& a = m.mla;
  const double q_head = static_cast<double>(a.qk_head_dim) + a.qk_pos_emb_head_dim;
  const double q_term = a.q_lora_rank > 0 ? a.q_lora_rank * (h + n * q_head + 1) : h * n * q_head;
  return q_term + a.kv_lora_rank * (h + n * (static_cast<double>(a.qk_head_dim) + a.v_head_dim) + 1) +
         h * a.qk_pos_emb_head_dim + n * a.v_head_dim * h + s * n * q_head / 2 + s * n * a.v_head_dim / 2;
}

// A layer's attention projections' weights (their forward FLOPs are 2 per weight and token).
double attention_projection_weights(const ModelSpec& m) {
  if (m.is_mla()) return static_cast<double>(mla_params(m, 1).projections);
  const double q = m.heads * static_cast<double>(head_dim_of(m));
  const double k = static_cast<double>(kv_heads_of(m)) * static_cast<double>(head_dim_of(m));
  return m.hidden * (q + 2 * k) + q * m.hidden;
}

}  // namespace

Flops megatron_flops(const ModelSpec& m, int64_t global_batch, int64_t seq, bool full_recompute) {
  const double B = static_cast<double>(global_batch);
  const double s = static_cast<double>(seq);
  const double l = m.layers;
  const double h = m.hidden;
  const double V = m.vocab;
  if (full_recompute) return 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
  return 72.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (12.0 * l * h));
}

Flops megatron_lm_flops(const ModelSpec& m, int64_t global_batch, int64_t seq) {
  const double s = static_cast<double>(seq);
  const double h = m.hidden;
  const double mats = static_cast<double>(ffn_matrices(m));
  const double attention = 6 * megatron_lm_attention_term(m, s);
  // Multi-token prediction: its layers as the others, its norms and eh_proj, one more logits each.
  double per_token = 6 * h * m.vocab * (1 + m.mtp_layers) + 6 * m.mtp_layers * (3 * h + 2 * h * h);
  for (int i = 0; i < m.layers + m.mtp_layers; ++i) {
    per_token += attention;
    per_token += is_moe_layer(m, i) ? 6 * h * m.moe.expert_ffn_hidden * mats * (m.moe.top_k + m.moe.shared_experts)
                                    : 6 * h * static_cast<double>(ffn_hidden_of(m)) * mats;
  }
  return per_token * static_cast<double>(global_batch) * s;
}

Flops layer_forward_model_flops(const ModelSpec& m, int layer_index, int64_t sequences, int64_t seq) {
  const double tokens = static_cast<double>(sequences) * static_cast<double>(seq);
  const double s = static_cast<double>(seq);
  const double h = m.hidden;
  const double a = m.heads;
  const double mats = static_cast<double>(ffn_matrices(m));
  const double projections = 2 * tokens * attention_projection_weights(m);
  const double core = 2 * tokens * s * a * static_cast<double>(head_dim_of(m) + v_head_dim_of(m));
  double ffn = 0;
  if (is_moe_layer(m, layer_index)) {
    const double router = 2 * tokens * h * m.moe.experts;
    const double active = m.moe.top_k + m.moe.shared_experts;
    ffn = router + active * mats * 2 * tokens * h * m.moe.expert_ffn_hidden;
  } else {
    ffn = mats * 2 * tokens * h * static_cast<double>(ffn_hidden_of(m));
  }
  return projections + core + ffn;
}

Flops layers_forward_model_flops(const ModelSpec& m, int64_t sequences, int64_t seq) {
  Flops sum = 0;
  for (int i = 0; i < m.layers + m.mtp_layers; ++i) sum += layer_forward_model_flops(m, i, sequences, seq);
  const double tokens = static_cast<double>(sequences) * static_cast<double>(seq);
  const double h = m.hidden;
  return sum + m.mtp_layers * 2 * tokens * 2 * h * h;  // each MTP module's eh_proj (2h -> h)
}

Flops forward_model_flops(const ModelSpec& m, int64_t sequences, int64_t seq) {
  const double tokens = static_cast<double>(sequences) * static_cast<double>(seq);
  // The logits of the model and of each MTP module.
  return layers_forward_model_flops(m, sequences, seq) + 2 * tokens * m.hidden * m.vocab * (1 + m.mtp_layers);
}

Flops model_flops(const ModelSpec& m, int64_t global_batch, int64_t seq) {
  return 3 * forward_model_flops(m, global_batch, seq);
}

}  // namespace trainsim
