// Megatron-Core's DDP work at each gradient bucket of the last micro-batch (strategy.grad_nan_check,
// strategy.grad_scale_kernel): when a bucket's gradients are all computed, start_grad_sync runs on
// the compute stream, before the bucket's reduction, the bucket's norm (read on the host: a host
// synchronisation, sim/graph/host_time.hpp) and its 1/dp scaling. Buckets are cut as grad_sync.cpp
// cuts the reductions: items in the order they complete, grad_bucket_size bytes of gradients, dense
// and routed-expert parameters apart, the stage's last item closing what is left. Like the reductions,
// the kernels are left out where nothing is reduced (dp x cp = 1, or the experts' group is one
// device), although Megatron-Core checks and scales such buckets too.
// Sources: NVIDIA/Megatron-LM megatron/core/distributed/param_and_grad_buffer.py (start_grad_sync:
// grad_data.norm(p=2) tested with `assert not norm.isnan()` in 2024, rerun_state_machine.validate_result
// in 2025; `grad_data *= gradient_scaling_factor` unless the factor is 1, as with
// average_in_collective); megatron/training/arguments.py (--no-check-for-nan-in-loss-and-grad: the
// check is on unless turned off).
#pragma once
#include <vector>

#include "sim/graph/build_context.hpp"

namespace trainsim {

// Ready items the stage's last backward will record (every layer, embedding and output layer of
// its chunks once): BuildContext::ready_left at the start of a build.
[[nodiscard]] int ready_items(const BuildContext& ctx);

// Records `item` as ready in `chunk` (BuildContext::grad_ready). With overlap.dp_grad_reduce, where
// it completes a bucket, the bucket's kernels follow on the compute stream and the item's task
// becomes the last of them, so the bucket's reduction waits for them. (Without the overlap Megatron
// reduces every bucket after the backward: grad_sync.cpp calls bucket_kernels there.)
void grad_ready(BuildContext& ctx, int chunk, BuildContext::GradReady item, int microbatch);

// The kernels of one bucket of `params` gradients added to the compute stream now, waiting for the
// tasks `waits` (and not for BuildContext::pending, kept for the kernel after them); the last task
// they add (the host's time after the norm's synchronisation, where exposed), or 0 when the run asks
// for none.
TaskId bucket_kernels(BuildContext& ctx, double params, int microbatch, std::vector<TaskId> waits);

}  // namespace trainsim
