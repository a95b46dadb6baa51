// Megatron-Core's combined 1F1B (--overlap-moe-expert-parallel-comm, strategy.overlap.ep_comm):
// a forward pass and a backward pass of two different micro-batches merged into one step, layer
// by layer (forward layer k of its chunk with backward layer k from the end of its own), so that
// each pass's EP all-to-alls run beside the other pass's compute. Per pair of MoE layers, on the
// compute stream:
//   F attention, F up to its dispatch  | F dispatch
//   B up to its first all-to-all       | B all-to-all (combine's gradient)
//   F experts (wait for F dispatch)    | F combine
//   B experts (wait for B's first)     | B all-to-all (dispatch's gradient)
//   F after its combine (waits for it)
//   B after its second all-to-all, B attention backward
// A layer without a partner (a dense layer, or the longer chunk's extra layers) runs whole, the
// forward's first. Pipelined (interleaved, sim/strategy/ep_overlap.hpp), the step first receives
// each pass's input (the forward's activation, the backward's gradient) and sends both outputs
// after it. Source: NVIDIA/Megatron-LM megatron/core/pipeline_parallel/combined_1f1b.py
// (combined_forward_backward_step) and the Megatron-Core user guide "Combined 1F1B: Expert-Parallel
// All-to-All Overlap".
#pragma once
#include "sim/graph/build_context.hpp"
#include "sim/graph/schedule.hpp"

namespace trainsim {

// Whether the schedule's steps `a` then `b` can run as one merged step: one forward and one full
// backward, not of the same chunk and micro-batch (that backward needs that forward's output).
[[nodiscard]] bool mergeable(const ScheduleStep& a, const ScheduleStep& b);

// `final_pass`: the backward is its chunk's last (its weight gradients feed the DP reduction).
void emit_merged_passes(BuildContext& ctx, const ScheduleStep& forward, const ScheduleStep& backward,
                        bool final_pass);

}  // namespace trainsim
