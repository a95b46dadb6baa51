#include "sim/model/params.hpp"

#include "sim/model/layer_ops.hpp"
#include "sim/model/mla_ops.hpp"
#include "sim/model/mtp_ops.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {
namespace {

// One layer on a device with tensor degree tp, expert degree ep and expert tensor degree etp (0: tp;
// tp = ep = 1: the full layer).
ParamCount layer_params_split(const ModelSpec& m, int layer_index, int tp, int ep, int etp) {
  Shard sh;
  sh.tp = tp;
  sh.ep = ep;
  sh.etp = etp;
  const int64_t h = m.hidden;
  const int64_t d = head_dim_of(m);
  const int64_t q = local_heads(m, sh) * d;
  const int64_t kv = local_kv_heads(m, sh) * d;
  const int64_t mats = ffn_matrices(m);
  ParamCount p;
  p.attention = h * (q + 2 * kv) + q * h;
  p.norms = 2 * norm_params_per_width(m) * h;
  if (m.is_mla()) {
    const MlaParams mla = mla_params(m, tp);
    p.attention = mla.projections;
    p.norms += mla.norms;
  }
  if (is_mtp_layer(m, layer_index)) {
    const MtpParams mtp = mtp_params(m, tp);
    p.mtp_proj = mtp.projection;
    p.norms += mtp.norms;
  }
  if (is_moe_layer(m, layer_index)) {
    const int64_t expert_ffn = m.moe.expert_ffn_hidden;
    p.moe_experts = local_experts(m, sh) * mats * h * ceil_div(expert_ffn, expert_tp_of(sh));
    p.moe_shared = mats * h * ceil_div(static_cast<int64_t>(m.moe.shared_experts) * expert_ffn, tp);
    p.router = h * m.moe.experts;
  } else {
    p.mlp = mats * h * ceil_div(ffn_hidden_of(m), tp);
  }
  return p;
}

}  // namespace

ParamCount& ParamCount::operator+=(const ParamCount& o) {
  attention += o.attention;
  mlp += o.mlp;
  moe_experts += o.moe_experts;
  moe_shared += o.moe_shared;
  router += o.router;
  norms += o.norms;
  embedding += o.embedding;
  output += o.output;
  mtp_proj += o.mtp_proj;
  return *this;
}

ParamCount layer_params(const ModelSpec& m, int layer_index) { return layer_params_split(m, layer_index, 1, 1, 1); }

ParamCount count_params(const ModelSpec& m) {
  ParamCount total;
  for (int i = 0; i < m.layers + m.mtp_layers; ++i) total += layer_params(m, i);
  total.norms += norm_params_per_width(m) * m.hidden;  // final norm
  total.embedding = static_cast<int64_t>(m.vocab) * m.hidden;
  total.output = m.tied_embeddings ? 0 : static_cast<int64_t>(m.vocab) * m.hidden;
  return total;
}

ParamCount layer_params_on_device(const ModelSpec& m, int layer_index, int tp, int ep, int etp) {
  return layer_params_split(m, layer_index, tp, ep, etp);
}

ParamCount layer_params_on_device(const ModelSpec& m, int layer_index, const StrategySpec& s) {
  return layer_params_split(m, layer_index, s.tp, s.ep, s.expert_tp_degree());
}

ParamCount device_params(const ModelSpec& m, const std::vector<int>& layers, bool first_stage, bool last_stage,
                         const StrategySpec& s) {
  return device_params(m, layers, first_stage, last_stage, s.tp, s.ep, s.expert_tp_degree());
}

ParamCount device_params(const ModelSpec& m, const std::vector<int>& layers, bool first_stage,
                         bool last_stage, int tp, int ep, int etp) {
  // A layer's parameters depend on its index only through whether it is an MoE layer (or an MTP layer):
  // count each kind once (a stage of a 16,384-device search holds up to 126 layers, summed millions of times).
  ParamCount p, kind[kLayerKinds];
  bool counted[kLayerKinds] = {false, false, false};
  bool mtp = false;
  for (int i : layers) {
    mtp = mtp || is_mtp_layer(m, i);
    const int k = layer_kind(m, i);
    if (!counted[k]) kind[k] = layer_params_split(m, i, tp, ep, etp), counted[k] = true;
    p += kind[k];
  }
  const int64_t table = ceil_div(m.vocab, tp) * m.hidden;
  // The MTP modules' embedding on the last stage: its own copy (with tied embeddings, the output's copy).
  if (first_stage || (last_stage && mtp && !m.tied_embeddings)) p.embedding = table;
  if (last_stage) {
    p.norms += norm_params_per_width(m) * m.hidden;  // final norm
    const bool shares_first_stage_table = m.tied_embeddings && first_stage;
    p.output = shares_first_stage_table ? 0 : table;
  }
  return p;
}

int64_t mtp_embedding_copy_params(const ModelSpec& m, int tp, int pp) {
  if (m.mtp_layers == 0 || pp <= 1 || m.tied_embeddings) return 0;
  return ceil_div(m.vocab, tp) * m.hidden;
}

int64_t tied_embedding_sync_params(const ModelSpec& m, int tp, int pp) {
  if ((!m.tied_embeddings && m.mtp_layers == 0) || pp <= 1) return 0;
  return ceil_div(m.vocab, tp) * m.hidden;
}

int64_t active_params(const ModelSpec& m) {
  ParamCount all = count_params(m);
  if (!m.is_moe()) return all.total();
  const int64_t per_expert = ffn_matrices(m) * m.hidden * static_cast<int64_t>(m.moe.expert_ffn_hidden);
  int64_t moe_layers = 0;
  for (int i = 0; i < m.layers + m.mtp_layers; ++i) moe_layers += is_moe_layer(m, i) ? 1 : 0;
  const int64_t active_experts = moe_layers * m.moe.top_k * per_expert;
  return all.total() - all.moe_experts + active_experts;
}

}  // namespace trainsim
