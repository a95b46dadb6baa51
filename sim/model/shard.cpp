#include "sim/model/shard.hpp"

#include <string>

#include "sim/core/error.hpp"

namespace trainsim {

Shard shard_of(const RunSpec& run) {
  Shard sh;
  sh.micro_batch = run.micro_batch;
  sh.seq = run.seq_len / run.strategy.cp;
  sh.context = run.seq_len;
  sh.tp = run.strategy.tp;
  sh.sequence_parallel = run.strategy.sequence_parallel;
  sh.cp = run.strategy.cp;
  sh.ep = run.strategy.ep;
  sh.etp = run.strategy.expert_tp_degree();
  sh.expert_load = run.model.is_moe() ? run.expert_load() : 1.0;
  sh.per_expert_gemms = run.framework.moe.per_expert_gemms;
  sh.chunk_sort = run.model.is_moe() && run.moe.dispatcher == MoeDispatcher::kAllToAll && run.strategy.ep > 1 &&
                  run.model.moe.experts > run.strategy.ep;
  sh.router_fp32 = run.model.is_moe() && run.moe.router_dtype == MoeRouterDtype::kFp32 &&
                   activation_element_bytes(run.precision) < 4;  // already fp32 otherwise
  sh.router_force_balance = run.model.is_moe() && run.moe.force_balance;
  sh.router_aux_loss = run.model.is_moe() && run.moe.aux_loss;
  sh.per_expert_bias = run.model.moe.expert_bias && run.framework.moe.per_expert_bias;
  sh.separate_glu_clamp = run.model.moe.glu_clamp > 0 && run.framework.moe.separate_glu_clamp;
  sh.eager_yarn_rope = run.model.position_embedding == PositionEmbedding::kYarn && run.framework.eager_yarn_rope;
  sh.precision = run.precision;
  sh.fp8_recipe = run.fp8.recipe;
  sh.fp8_any_layout = run.platform.accelerator.fp8_gemm_any_layout;
  sh.flash_attention = run.flash_attention;
  sh.softmax_fusion = run.framework.softmax_fusion;
  sh.fused_cross_entropy = run.cross_entropy == CrossEntropy::kTe;
  sh.attention_dropout = run.dropout.attention;
  sh.hidden_dropout = run.dropout.hidden;
  return sh;
}

int64_t kv_heads_of(const ModelSpec& m) { return m.kv_heads > 0 ? m.kv_heads : m.heads; }
int64_t head_dim_of(const ModelSpec& m) {
  if (m.is_mla()) return static_cast<int64_t>(m.mla.qk_head_dim) + m.mla.qk_pos_emb_head_dim;
  return m.head_dim > 0 ? m.head_dim : m.hidden / m.heads;
}
int64_t v_head_dim_of(const ModelSpec& m) { return m.is_mla() ? m.mla.v_head_dim : head_dim_of(m); }
int64_t ffn_hidden_of(const ModelSpec& m) { return m.ffn_hidden > 0 ? m.ffn_hidden : 4LL * m.hidden; }
int64_t ffn_matrices(const ModelSpec& m) { return m.gated_ffn ? 3 : 2; }
int64_t norm_params_per_width(const ModelSpec& m) { return m.norm == NormKind::kLayerNorm ? 2 : 1; }

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t gemm_tokens(const Shard& sh) { return sh.micro_batch * sh.seq; }

int64_t sequence_tokens(const Shard& sh) {
  return sh.sequence_parallel ? ceil_div(gemm_tokens(sh), sh.tp) : gemm_tokens(sh);
}

bool sp_gathers(const Shard& sh) { return sh.sequence_parallel && sh.tp > 1; }

bool experts_fold_tp(const Shard& sh) { return sh.etp > 0 && sh.etp < sh.tp; }

int expert_tp_of(const Shard& sh) { return sh.etp > 0 ? sh.etp : sh.tp; }

int64_t expert_input_tokens(const Shard& sh) { return experts_fold_tp(sh) ? sequence_tokens(sh) : gemm_tokens(sh); }

int64_t local_heads(const ModelSpec& m, const Shard& sh) {
  if (sh.tp < 1 || m.heads % sh.tp != 0) {
    throw StrategyError("tp=" + std::to_string(sh.tp) + " does not divide the " +
                        std::to_string(m.heads) + " attention heads of model '" + m.name + "'");
  }
  return m.heads / sh.tp;
}

int64_t local_kv_heads(const ModelSpec& m, const Shard& sh) { return ceil_div(kv_heads_of(m), sh.tp); }

int64_t local_experts(const ModelSpec& m, const Shard& sh) {
  if (sh.ep < 1 || m.moe.experts % sh.ep != 0) {
    throw StrategyError("ep=" + std::to_string(sh.ep) + " does not divide the " +
                        std::to_string(m.moe.experts) + " experts of model '" + m.name + "'");
  }
  return m.moe.experts / sh.ep;
}


Precision activation_precision(Precision p) { return is_fp8(p) ? Precision::kBf16 : p; }

double activation_element_bytes(Precision p) { return bytes_per_element(activation_precision(p)); }

double gradient_element_bytes(const RunSpec& run) {
  if (run.strategy.grad_precision) return bytes_per_element(*run.strategy.grad_precision);
  return run.precision == Precision::kBf16 ? bytes_per_element(Precision::kFp32) : activation_element_bytes(run.precision);
}

}  // namespace trainsim
