#include "sim/model/model_flops.hpp"

#include "sim/model/layer_ops.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

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
  const double q = static_cast<double>(m.heads) * static_cast<double>(head_dim_of(m));
  const double k = static_cast<double>(kv_heads_of(m)) * static_cast<double>(head_dim_of(m));
  const double mats = static_cast<double>(ffn_matrices(m));
  double per_token = 6 * h * m.vocab;
  for (int i = 0; i < m.layers; ++i) {
    per_token += 6 * (h * (q + 2 * k) + q * h) + 6 * q * s;
    per_token += is_moe_layer(m, i) ? 6 * h * m.moe.expert_ffn_hidden * mats * (m.moe.top_k + m.moe.shared_experts)
                                    : 6 * h * static_cast<double>(ffn_hidden_of(m)) * mats;
  }
  return per_token * static_cast<double>(global_batch) * s;
}

Flops layer_forward_model_flops(const ModelSpec& m, int layer_index, int64_t sequences, int64_t seq) {
  const double tokens = static_cast<double>(sequences) * static_cast<double>(seq);
  const double s = static_cast<double>(seq);
  const double h = m.hidden;
  const double d = static_cast<double>(head_dim_of(m));
  const double a = m.heads;
  const double kv = static_cast<double>(kv_heads_of(m));
  const double mats = static_cast<double>(ffn_matrices(m));
  const double qkv = 2 * tokens * h * (a + 2 * kv) * d;
  const double core = 4 * tokens * s * a * d;
  const double proj = 2 * tokens * a * d * h;
  double ffn = 0;
  if (is_moe_layer(m, layer_index)) {
    const double router = 2 * tokens * h * m.moe.experts;
    const double active = m.moe.top_k + m.moe.shared_experts;
    ffn = router + active * mats * 2 * tokens * h * m.moe.expert_ffn_hidden;
  } else {
    ffn = mats * 2 * tokens * h * static_cast<double>(ffn_hidden_of(m));
  }
  return qkv + core + proj + ffn;
}

Flops forward_model_flops(const ModelSpec& m, int64_t sequences, int64_t seq) {
  Flops sum = 0;
  for (int i = 0; i < m.layers; ++i) sum += layer_forward_model_flops(m, i, sequences, seq);
  const double tokens = static_cast<double>(sequences) * static_cast<double>(seq);
  return sum + 2 * tokens * m.hidden * m.vocab;
}

Flops model_flops(const ModelSpec& m, int64_t global_batch, int64_t seq) {
  return 3 * forward_model_flops(m, global_batch, seq);
}

}  // namespace trainsim
