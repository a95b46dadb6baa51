// The tasks of one transformer layer for one micro-batch: its attention block (windowed or full)
// and FFN block (dense MLP or MoE), forward, or backward with what selective recompute re-runs
// before each block's backward (sim/model/recompute_ops.hpp). A multi-token-prediction layer
// (sim/model/layer_ops.hpp is_mtp_layer) runs inside its module: the embedding and projection part
// before it, the shared output head after it (in the backward, the reverse).
#pragma once
#include "sim/graph/block_tasks.hpp"

namespace trainsim {

[[nodiscard]] const BlockTemplate& attention_block(const BuildContext& ctx, int layer);
[[nodiscard]] const BlockTemplate& ffn_block(const BuildContext& ctx, int layer);
// Parameters of the layer on this device (count).
[[nodiscard]] double layer_params(const BuildContext& ctx, int layer);
// Of those, the routed experts' (0 for a dense layer).
[[nodiscard]] double layer_expert_params(const BuildContext& ctx, int layer);

void layer_forward(BuildContext& ctx, int layer, int microbatch, TaskRole role);
// Selective recompute re-runs a block's picked forward kernels (`redo`: a KernelTemplates *_redo
// block) before its backward; nothing for the weight-gradient pass.
void redo_before_backward(BuildContext& ctx, const BlockTemplate& redo, int layer, int microbatch, BackwardPart part);
// Returns the layer's last weight-gradient task (the attention block's), for gradient sync.
TaskId layer_backward(BuildContext& ctx, int layer, int microbatch, BackwardPart part);
// The attention half of layer_backward (its recompute, then its backward), the same return.
TaskId attention_backward(BuildContext& ctx, int layer, int microbatch, BackwardPart part);

}  // namespace trainsim
