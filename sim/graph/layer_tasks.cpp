#include "sim/graph/layer_tasks.hpp"

#include "sim/model/layer_ops.hpp"

namespace trainsim {

const BlockTemplate& attention_block(const BuildContext& ctx, int layer) {
  return is_window_layer(ctx.run.model, layer) ? ctx.kernels.attention_window : ctx.kernels.attention;
}

const BlockTemplate& ffn_block(const BuildContext& ctx, int layer) {
  return is_moe_layer(ctx.run.model, layer) ? ctx.kernels.moe : ctx.kernels.mlp;
}

double layer_params(const BuildContext& ctx, int layer) {
  const ModelSpec& m = ctx.run.model;
  if (is_mtp_layer(m, layer))  // the first module's carries the embedding copy it reads
    return ctx.kernels.mtp_layer_params + (layer == m.layers ? ctx.kernels.mtp_embedding_params : 0);
  return is_moe_layer(m, layer) ? ctx.kernels.moe_layer_params : ctx.kernels.dense_layer_params;
}

double layer_expert_params(const BuildContext& ctx, int layer) {
  if (is_mtp_layer(ctx.run.model, layer)) return ctx.kernels.mtp_layer_expert_params;
  return is_moe_layer(ctx.run.model, layer) ? ctx.kernels.moe_layer_expert_params : 0;
}

// An MTP layer's module around the layer (sim/model/mtp_ops.hpp): forward, the embedding of the shifted
// tokens and the projection part before the layer, its output head after it. A recompute re-runs only the
// projection part (Megatron-Core checkpoints the module's projection and layer, not the embedding or head).
void mtp_before_layer(BuildContext& ctx, int layer, int mb, TaskRole role) {
  const KernelTemplates& k = ctx.kernels;
  if (role != TaskRole::kRecompute) emit_block_forward(ctx, k.embedding, forward_rules(ctx, k.embedding), mb, layer, role);
  emit_block_forward(ctx, k.mtp_in, forward_rules(ctx, k.mtp_in), mb, layer, role);
}

void layer_forward(BuildContext& ctx, int layer, int mb, TaskRole role) {
  const bool mtp = is_mtp_layer(ctx.run.model, layer);
  if (mtp) mtp_before_layer(ctx, layer, mb, role);
  const BlockTemplate& attention = attention_block(ctx, layer);
  emit_block_forward(ctx, attention, forward_rules(ctx, attention), mb, layer, role);
  const BlockTemplate& ffn = ffn_block(ctx, layer);
  emit_block_forward(ctx, ffn, forward_rules(ctx, ffn), mb, layer, role);
  if (mtp && role != TaskRole::kRecompute)
    emit_block_forward(ctx, ctx.kernels.output, forward_rules(ctx, ctx.kernels.output), mb, layer, role);
}

// Selective recompute re-runs a block's picked forward kernels before its backward (a dense MLP
// block with its TP collectives; the attention core and the MoE norm/activation with none).
void redo_before_backward(BuildContext& ctx, const BlockTemplate& redo, int layer, int mb, BackwardPart part) {
  if (redo.forward.empty() || part == BackwardPart::kWeightGrad) return;
  const BlockRules rules = &redo == &ctx.kernels.mlp_redo ? forward_rules(ctx, redo) : BlockRules{};
  emit_block_forward(ctx, redo, rules, mb, layer, TaskRole::kRecompute);
}

TaskId layer_backward(BuildContext& ctx, int layer, int mb, BackwardPart part) {
  const KernelTemplates& k = ctx.kernels;
  const bool mtp = is_mtp_layer(ctx.run.model, layer);
  if (mtp) emit_block_backward(ctx, k.output, backward_rules(ctx, k.output), mb, layer, part);
  const BlockTemplate& ffn = ffn_block(ctx, layer);
  redo_before_backward(ctx, is_moe_layer(ctx.run.model, layer) ? k.moe_redo : k.mlp_redo, layer, mb, part);
  emit_block_backward(ctx, ffn, backward_rules(ctx, ffn), mb, layer, part);
  const TaskId last = attention_backward(ctx, layer, mb, part);
  if (!mtp) return last;
  emit_block_backward(ctx, k.mtp_in, backward_rules(ctx, k.mtp_in), mb, layer, part);
  return emit_block_backward(ctx, k.embedding, backward_rules(ctx, k.embedding), mb, layer, part);
}

TaskId attention_backward(BuildContext& ctx, int layer, int mb, BackwardPart part) {
  const bool window = is_window_layer(ctx.run.model, layer);
  redo_before_backward(ctx, window ? ctx.kernels.attention_window_redo : ctx.kernels.attention_redo, layer, mb, part);
  const BlockTemplate& attention = attention_block(ctx, layer);
  return emit_block_backward(ctx, attention, backward_rules(ctx, attention), mb, layer, part);
}

}  // namespace trainsim
