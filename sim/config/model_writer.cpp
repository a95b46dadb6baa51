#include "sim/config/model_writer.hpp"

#include <sstream>

#include "sim/config/enum_names.hpp"
#include "sim/config/yaml_scalars.hpp"

namespace trainsim {

std::string model_yaml(const ModelSpec& m, const std::vector<std::string>& comment) {
  std::ostringstream out;
  for (const std::string& line : comment) out << "# " << line << "\n";
  if (!m.notes.empty()) {
    out << "# What the source says that this schema cannot express (how it is taken instead):\n";
    for (const std::string& note : m.notes) out << "#  - " << note << "\n";
  }
  out << "name: " << yaml_quoted(m.name) << "\ndescription: " << yaml_quoted(m.description) << "\nlayers: " << m.layers
      << "\nhidden: " << m.hidden << "\nheads: " << m.heads << "\nkv_heads: " << m.kv_heads
      << "\nhead_dim: " << m.head_dim << "\nffn_hidden: " << m.ffn_hidden << "\ngated_ffn: " << yaml_bool(m.gated_ffn)
      << "\nvocab: " << m.vocab << "\ntied_embeddings: " << yaml_bool(m.tied_embeddings)
      << "\nnorm: " << yaml_name(norm_names(), m.norm)
      << "\nposition_embedding: " << yaml_name(position_embedding_names(), m.position_embedding) << "\n";
  if (m.qk_norm) out << "qk_norm: true\n";
  if (m.mtp_layers > 0) out << "mtp_layers: " << m.mtp_layers << "\n";
  if (m.is_mla()) {
    const MlaSpec& a = m.mla;
    out << "mla:\n  q_lora_rank: " << a.q_lora_rank << "\n  kv_lora_rank: " << a.kv_lora_rank
        << "\n  qk_head_dim: " << a.qk_head_dim << "\n  qk_pos_emb_head_dim: " << a.qk_pos_emb_head_dim
        << "\n  v_head_dim: " << a.v_head_dim << "\n";
  }
  if (m.sliding_window > 0)
    out << "sliding_window: " << m.sliding_window << "\nfull_attention_every: " << m.full_attention_every << "\n";
  if (m.is_moe()) {
    const MoeSpec& e = m.moe;
    out << "moe:\n  experts: " << e.experts << "\n  top_k: " << e.top_k << "\n  expert_ffn_hidden: "
        << e.expert_ffn_hidden << "\n  shared_experts: " << e.shared_experts << "\n  first_dense_layers: "
        << e.first_dense_layers << "\n  layer_frequency: " << e.layer_frequency
        << "\n  capacity_factor: " << yaml_exact(e.capacity_factor) << "\n";
    if (e.expert_bias) out << "  expert_bias: true\n";
    if (e.glu_clamp > 0) out << "  glu_clamp: " << yaml_exact(e.glu_clamp) << "\n";
  }
  return out.str();
}

}  // namespace trainsim
