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
// The output layer's weight gradients deferred by strategy.defer_output_wgrad (Megatron-Core's
// defer_embedding_wgrad_compute), one GEMM per deferred micro-batch in the order their backward ran,
// after the stage's last backward: where the last stage would otherwise wait for the pipeline to
// drain. Their gradient is then ready for the data-parallel reduction.
void emit_deferred_output_wgrads(BuildContext& ctx);

}  // namespace trainsim
