// An upper bound of a model's parameter count in floating point (no integer can overflow here),
// compared with kMaxModelParams. Every layer is counted with the larger of its dense and MoE
// FFN, so the bound is at least the true count of sim/model/params.cpp.
#include "sim/config/model_limits.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace trainsim {
namespace {

std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

// Weights of one layer's attention: the q, k, v and output projections, or MLA's down- and
// up-projections and its output projection.
double attention_params(const ModelSpec& m) {
  const double h = m.hidden, heads = m.heads;
  if (!m.is_mla()) return h * m.head_dim * (2.0 * heads + 2.0 * m.kv_heads);
  const MlaSpec& a = m.mla;
  const double qk = double(a.qk_head_dim) + a.qk_pos_emb_head_dim;
  const double q = a.q_lora_rank > 0 ? h * a.q_lora_rank + double(a.q_lora_rank) * heads * qk : h * heads * qk;
  return q + h * (double(a.kv_lora_rank) + a.qk_pos_emb_head_dim) +
         double(a.kv_lora_rank) * heads * (double(a.qk_head_dim) + a.v_head_dim) + heads * a.v_head_dim * h;
}

}  // namespace

void check_model_size(const MapReader& r, const ModelSpec& m) {
  const double h = m.hidden, mats = m.gated_ffn ? 3 : 2;
  const double attention = attention_params(m);
  const double dense_ffn = mats * h * m.ffn_hidden;
  const double experts = m.is_moe() ? mats * h * m.moe.expert_ffn_hidden * (double(m.moe.experts) + m.moe.shared_experts) +
                                          h * m.moe.experts
                                    : 0.0;
  const double per_layer = attention + std::max(dense_ffn, experts) + 4 * h;
  const double embedding = 2.0 * m.vocab * h;
  const double layers = static_cast<double>(m.layers) + m.mtp_layers;  // MTP layers are of the same kinds
  const double total = layers * per_layer + embedding;
  if (total <= kMaxModelParams) return;
  // Name the key whose term dominates: that is the value to lower.
  const double terms[] = {layers * attention, layers * dense_ffn, layers * experts, embedding};
  const char* keys[] = {"hidden", "ffn_hidden", "experts", "vocab"};
  const int largest = static_cast<int>(std::max_element(std::begin(terms), std::end(terms)) - std::begin(terms));
  const std::string key = keys[largest];
  const bool moe_key = largest == 2;
  const std::string where = moe_key ? "moe.experts" : key;
  const int values[] = {m.hidden, m.ffn_hidden, m.moe.experts, m.vocab};
  const std::string value = std::to_string(values[largest]);
  const std::string problem = "makes the model about " + sci(total) + " parameters (largest term: " + where + ", " +
                              sci(terms[largest]) + "), more than the limit of " + sci(kMaxModelParams) +
                              " that keeps parameter, byte and FLOP counts exact";
  const std::string expected = "a model of at most " + sci(kMaxModelParams) + " parameters (see docs/schema.md)";
  if (moe_key) r.source().fail_at("moe.experts", problem, value, expected);
  r.fail(key, problem, value, expected);
}

}  // namespace trainsim
