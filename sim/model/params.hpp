// Parameter counts (number of parameters, not bytes) of a model, of one layer, and of what one
// device holds after tensor/pipeline/expert splitting. Weights only: no biases in the linear
// layers (Llama/Megatron-Core style); norms count gain (+ bias for LayerNorm); no learned
// position table (rotary). Structure follows Megatron's theoretical_memory_usage accounting.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/config/run_spec.hpp"

namespace trainsim {

struct ParamCount {
  int64_t attention = 0;    // QKV (h·(a + 2·kv)·d) + output projection (a·d·h); MLA's projections (mla_ops.hpp)
  int64_t mlp = 0;          // dense FFN: matrices·h·ffn (matrices = 3 gated, 2 otherwise)
  int64_t moe_experts = 0;  // all routed experts: experts·matrices·h·expert_ffn
  int64_t moe_shared = 0;   // shared experts: shared·matrices·h·expert_ffn
  int64_t router = 0;       // h·experts
  int64_t norms = 0;        // 2 per layer (+ the final norm), h or 2h each; MLA's latent norms too
  int64_t embedding = 0;    // V·h input table
  int64_t output = 0;       // V·h logits projection (0 in model totals when tied)
  int64_t mtp_proj = 0;     // multi-token prediction's eh_proj, 2h·h per module (mtp_ops.hpp)

  [[nodiscard]] int64_t total() const {
    return attention + mlp + moe_experts + moe_shared + router + norms + embedding + output + mtp_proj;
  }
  // Parameters sharded over the expert-data-parallel group (the routed experts) and the rest
  // (sharded over the data-parallel group).
  [[nodiscard]] int64_t expert() const { return moe_experts; }
  [[nodiscard]] int64_t non_expert() const { return total() - moe_experts; }
  // Weights of the Linear layers (QKV, projection, FFN, experts): the GEMMs an 8-bit run quantizes
  // (Transformer Engine modules); norms, router, embedding and output stay 16-bit.
  [[nodiscard]] int64_t linear() const { return attention + mlp + moe_experts + moe_shared + mtp_proj; }
  ParamCount& operator+=(const ParamCount& o);
};

// Parameters of layer `layer_index` (attention, norms, and its dense or MoE FFN).
[[nodiscard]] ParamCount layer_params(const ModelSpec& m, int layer_index);

// The whole model: all layers + final norm + embedding + output (output = 0 when tied: the
// table is counted once), and the multi-token-prediction modules' layers and projections (their
// embedding and output head are the model's own).
[[nodiscard]] ParamCount count_params(const ModelSpec& m);

// Parameters one device holds for `layers` (global layer indices of all its chunks), with
// tensor-parallel degree `tp` (attention heads, FFN width, vocab split; norms and router
// replicated; kv heads replicated when fewer than tp) and expert-parallel degree `ep`
// (routed experts split ep ways, each expert's FFN width split tp ways: expert TP = tp).
// The first stage holds the embedding, the last stage the output layer and final norm; with
// tied embeddings and more than one stage the last stage holds its own copy of the table
// (Megatron keeps both and all-reduces their gradients); on a single stage it is held once. The
// same for the embedding a model's MTP modules read on the last stage. Layer indices from L on are the
// MTP layers (sim/model/layer_ops.hpp is_mtp_layer), each with its projection part.
// The embedding copy the MTP modules read on the last stage, where it is a copy of its own (count): the
// table shard, ceil(V / tp) x h, with MTP, pp > 1 and untied embeddings (tied, the output's copy serves);
// else 0. Its gradients complete with the first MTP layer's.
[[nodiscard]] int64_t mtp_embedding_copy_params(const ModelSpec& m, int tp, int pp);
// One layer's parameters on a device with tensor degree tp, expert degree ep and expert tensor degree
// etp (StrategySpec::expert_tp_degree; 0: as tp).
[[nodiscard]] ParamCount layer_params_on_device(const ModelSpec& m, int layer_index, int tp, int ep, int etp = 0);
[[nodiscard]] ParamCount device_params(const ModelSpec& m, const std::vector<int>& layers,
                                       bool first_stage, bool last_stage, int tp, int ep, int etp = 0);
// The same with the strategy's tp, ep and expert tensor degree.
[[nodiscard]] ParamCount layer_params_on_device(const ModelSpec& m, int layer_index, const StrategySpec& s);
[[nodiscard]] ParamCount device_params(const ModelSpec& m, const std::vector<int>& layers, bool first_stage,
                                       bool last_stage, const StrategySpec& s);

// Tied embeddings split over pipeline stages (or the embedding a model's MTP modules read on the last
// stage: Megatron-Core keeps a copy there and sums the same way, _get_shared_word_embedding_weight in
// megatron/core/distributed/finalize_model_grads.py returning the table when mtp_num_layers is set): the first stage's input table and the
// last stage's copy of it get their gradients summed once per iteration, by an all-reduce
// between the two (Megatron-LM finalize_model_grads' _allreduce_word_embedding_grads over the
// embedding group; DeepSpeed's PipelineEngine _exec_reduce_tied_grads over the tied group). The
// elements each of the two devices sends: its table shard, ceil(V / tp) x h; 0 when the table is not
// tied or sits on one stage (pp = 1), where nothing is summed.
[[nodiscard]] int64_t tied_embedding_sync_params(const ModelSpec& m, int tp, int pp);

// Parameters active for one token (MoE: top_k routed + shared experts, router included).
[[nodiscard]] int64_t active_params(const ModelSpec& m);

}  // namespace trainsim
