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
  return is_moe_layer(ctx.run.model, layer) ? ctx.kernels.moe_layer_params : ctx.kernels.dense_layer_params;
}

double layer_expert_params(const BuildContext& ctx, int layer) {
  return is_moe_layer(ctx.run.model, layer) ? ctx.kernels.moe_layer_expert_params : 0;
}

void layer_forward(BuildContext& ctx, int layer, int mb, TaskRole role) {
  const BlockTemplate& attention = attention_block(ctx, layer);
  emit_block_forward(ctx, attention, forward_rules(ctx, attention), mb, layer, role);
  const BlockTemplate& ffn = ffn_block(ctx, layer);
  emit_block_forward(ctx, ffn, forward_rules(ctx, ffn), mb, layer, role);
}

// Selective recompute re-runs a block's picked forward kernels before its backward (a dense MLP
// block with its TP collectives; the attention core and the MoE norm/activation with none).
void redo_before_backward(BuildContext& ctx, const BlockTemplate& redo, int layer, int mb, BackwardPart part) {
  if (redo.forward.empty() || part == BackwardPart::kWeightGrad) return;
  const BlockRules rules = &redo == &ctx.kernels.mlp_redo ? forward_rules(ctx, redo) : BlockRules{};
  emit_block_forward(ctx, redo, rules, mb, layer, TaskRole::kRecompute);
}

TaskId layer_backward(BuildContext& ctx, int layer, int mb, BackwardPart part) {
  const BlockTemplate& ffn = ffn_block(ctx, layer);
  redo_before_backward(ctx, is_moe_layer(ctx.run.model, layer) ? ctx.kernels.moe_redo : ctx.kernels.mlp_redo, layer,
                       mb, part);
  emit_block_backward(ctx, ffn, backward_rules(ctx, ffn), mb, layer, part);
  return attention_backward(ctx, layer, mb, part);
}

TaskId attention_backward(BuildContext& ctx, int layer, int mb, BackwardPart part) {
  const bool window = is_window_layer(ctx.run.model, layer);
  redo_before_backward(ctx, window ? ctx.kernels.attention_window_redo : ctx.kernels.attention_redo, layer, mb, part);
  const BlockTemplate& attention = attention_block(ctx, layer);
  return emit_block_backward(ctx, attention, backward_rules(ctx, attention), mb, layer, part);
}

}  // namespace trainsim
