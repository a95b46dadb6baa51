// The tied embedding's gradient sum between the first and the last pipeline stage.
//
// With tied embeddings and pp > 1 the first stage holds the input table and the last stage its own
// copy for the output layer (sim/model/params.hpp); once the backward is over their gradients are
// all-reduced between the two before the optimizer steps (Megatron-LM finalize_model_grads: after
// the data-parallel gradient sync, _allreduce_word_embedding_grads over the embedding group of the
// first and last pipeline ranks; DeepSpeed's PipelineEngine: _exec_reduce_tied_grads over the tied
// group, which in its TrainSchedule precedes the data-parallel ReduceGrads). An all-reduce of two
// members sends each member's whole buffer across once per direction (a ring's reduce-scatter and
// all-gather, half of it each), so it is replayed as one message each way on the pipeline streams,
// along the same path a pipeline transfer between the two takes: the end stage sends its shard of
// the table's gradients, ceil(V / tp) x h elements at the gradient reduction's precision, to the
// other end (offset -1 from the first stage and +1 from the last wrap around the pipeline), after
// its data-parallel reduction, and the optimizer waits for both its send and its receive. One
// latency is paid where the ring pays two (microseconds against the milliseconds of the bytes).
// Placed after the data-parallel reduction for both frameworks; DeepSpeed's order differs only
// when its reduction overlaps, which its pipeline engine does not do.
#pragma once
#include "sim/graph/build_context.hpp"

namespace trainsim {

// On the first or last stage of a pipelined run with tied embeddings: the exchange, with the tasks
// the optimizer waits for added to ctx.pending; elsewhere nothing.
void emit_tied_embedding_sync(BuildContext& ctx);

}  // namespace trainsim
