#include "sim/model/recompute_ops.hpp"

#include <initializer_list>

#include "sim/model/expert_eager_ops.hpp"

namespace trainsim {
namespace {

bool starts_with_any(const std::string& name, std::initializer_list<const char*> prefixes) {
  for (const char* p : prefixes)
    if (name.rfind(p, 0) == 0) return true;
  return false;
}

}  // namespace

bool selectively_recomputed(const std::string& kernel, LayerBlock block, const RecomputeModules& m,
                            const ModelSpec& model) {
  switch (block) {
    case LayerBlock::kAttention:
      return (m.layernorm && model.is_mla() && kernel == "attn_norm.fwd") ||
             (m.core_attn && starts_with_any(kernel, {"attn_scores", "attn_softmax", "attn_dropout", "attn_context"})) ||
             (m.mla_up_proj && starts_with_any(kernel, {"q_norm.", "kv_norm.", "q_up_proj.", "q_proj.", "kv_up_proj.",
                                                         "mla_rope_q.", "mla_rope_kv."}));
    case LayerBlock::kMlp:
      return m.mlp && !starts_with_any(kernel, {"mlp_residual"});
    case LayerBlock::kMoe:
      return (m.layernorm && starts_with_any(kernel, {"moe_norm."})) ||
             (m.moe_act &&
              starts_with_any(kernel, {kGluClampForward, "moe_expert_act.fwd", "moe_expert_fc2.input"}));
  }
  return false;
}

}  // namespace trainsim
