#include "sim/model/layer_ops.hpp"

#include "sim/model/attention_ops.hpp"
#include "sim/model/kernel_builders.hpp"
#include "sim/model/mlp_ops.hpp"
#include "sim/model/moe_ops.hpp"

namespace trainsim {

bool is_mtp_layer(const ModelSpec& m, int layer_index) { return layer_index >= m.layers; }

bool is_moe_layer(const ModelSpec& m, int layer_index) {
  if (is_mtp_layer(m, layer_index)) layer_index = m.layers - 1;
  if (!m.is_moe() || layer_index < m.moe.first_dense_layers) return false;
  const int freq = m.moe.layer_frequency > 0 ? m.moe.layer_frequency : 1;
  return (layer_index - m.moe.first_dense_layers) % freq == 0;
}

bool is_window_layer(const ModelSpec& m, int layer_index) {
  if (m.sliding_window <= 0) return false;
  if (is_mtp_layer(m, layer_index)) layer_index = m.layers - 1;
  return m.full_attention_every <= 0 || (layer_index + 1) % m.full_attention_every != 0;
}

int layer_kind(const ModelSpec& m, int layer_index) {
  return is_mtp_layer(m, layer_index) ? 2 : is_moe_layer(m, layer_index) ? 1 : 0;
}

int moe_layer_count(const ModelSpec& m) {
  int count = 0;
  for (int i = 0; i < m.layers; ++i) count += is_moe_layer(m, i) ? 1 : 0;
  return count;
}

std::vector<Kernel> layer_forward(const ModelSpec& m, const Shard& sh, int layer_index) {
  std::vector<Kernel> out = attention_forward(m, sh);
  append(out, is_moe_layer(m, layer_index) ? moe_forward(m, sh) : mlp_forward(m, sh));
  return out;
}

std::vector<Kernel> layer_backward(const ModelSpec& m, const Shard& sh, int layer_index) {
  std::vector<Kernel> out = is_moe_layer(m, layer_index) ? moe_backward(m, sh) : mlp_backward(m, sh);
  append(out, attention_backward(m, sh));
  return out;
}

}  // namespace trainsim
