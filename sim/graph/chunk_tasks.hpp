// One schedule step — the forward, backward, input-gradient or weight-gradient pass of one
// micro-batch through one model chunk — as tasks: pipeline receive, embedding, layers (with
// recompute and ZeRO-3 parameter gathers), output layer, pipeline send.
#pragma once
#include "sim/graph/block_tasks.hpp"

namespace trainsim {

void emit_chunk_forward(BuildContext& ctx, int chunk, int microbatch);
// `final_pass`: the last backward of this chunk in the iteration; its weight-gradient tasks are
// recorded in ctx.grad_ready for the data-parallel gradient reduction.
void emit_chunk_backward(BuildContext& ctx, int chunk, int microbatch, BackwardPart part, bool final_pass);

}  // namespace trainsim
