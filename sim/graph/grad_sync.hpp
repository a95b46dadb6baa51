// Data-parallel gradient reduction and the optimizer step that closes an iteration.
//  - ZeRO 0: bucketed all-reduce of gradients (Megatron DDP), ZeRO 1/2: bucketed reduce-scatter
//    (distributed optimizer) then an all-gather of the updated parameters; ZeRO 3's per-layer
//    gathers and reduce-scatters are emitted with the layers (chunk_tasks).
//  - Buckets fill in the order gradients become final (the last backward pass of each chunk) and
//    are reduced as soon as full when overlap.dp_grad_reduce, else after the whole backward.
//  - ZeRO 1/2 parameter all-gather: with overlap.zero_param_gather it overlaps the next
//    iteration's forward — in a one-iteration replay it is issued at the start and each chunk's
//    first forward waits for it (the steady state); without, it follows the optimizer, exposed.
//  - With expert parallelism (ep > 1) the routed experts' gradients and weights fill buckets of
//    their own, reduced and gathered over the expert data-parallel group (cp*dp/ep ranks, tp*cp*dp/ep
//    with folded experts, Dim::kEdp;
//    nothing when that is one rank), as Megatron-Core's DistributedDataParallel keeps its expert
//    buffers apart (megatron/core/distributed/distributed_data_parallel.py: expert_parallel_buffers,
//    reduced over the expert data-parallel group); both kinds share the DP stream in the order
//    their buckets fill. ZeRO 3's per-layer gathers and reduce-scatters split the same way (chunk_tasks).
//  - With tied embeddings and pp > 1 the first and last stage then exchange the table's gradients
//    (tied_grads.hpp) before their optimizer steps.
#pragma once
#include "sim/graph/build_context.hpp"

namespace trainsim {

// Issues the start-of-iteration parameter gathers (ZeRO 1/2 with overlap) in buckets of
// grad_bucket_size, in layer order, and records in ctx.layer_param_gather which one each
// layer's first forward waits for (Megatron's overlap_param_gather dispatches per bucket).
void emit_param_prefetch(BuildContext& ctx);
// Moves the prefetched parameter gathers (dense and experts') that `layer`'s first forward waits for
// into `pending`, once: later forwards of the layer find none.
void take_param_gathers(BuildContext& ctx, int layer, std::vector<TaskId>& pending);
void emit_grad_sync_and_optimizer(BuildContext& ctx);

}  // namespace trainsim
