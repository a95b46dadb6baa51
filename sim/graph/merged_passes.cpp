#include "sim/graph/merged_passes.hpp"

#include <algorithm>
#include <utility>

#include "sim/analytic/host_time.hpp"
#include "sim/graph/grad_checks.hpp"
#include "sim/graph/grad_sync.hpp"
#include "sim/graph/host_time.hpp"
#include "sim/graph/layer_tasks.hpp"
#include "sim/graph/p2p_tasks.hpp"
#include "sim/model/layer_ops.hpp"

namespace trainsim {
namespace {

// The collectives one pass's next kernel waits for. While the other pass emits, they wait here, so
// that its kernels run beside them instead of after them.
struct Lane {
  std::vector<TaskId> pending;
};

template <class Emit>
void in_lane(BuildContext& ctx, Lane& lane, Emit emit) {
  std::swap(ctx.pending, lane.pending);
  emit();
  std::swap(ctx.pending, lane.pending);
}

struct MergedLayers {
  int forward = -1, backward = -1;  // layer indices; -1: no layer of that pass at this position
  int forward_mb = 0, backward_mb = 0;
};

// One MoE layer of each pass, split at their all-to-alls (see the header). Returns the backward
// layer's last weight-gradient task.
TaskId merge_moe_layers(BuildContext& ctx, Lane& f, Lane& b, const MergedLayers& l) {
  const BlockTemplate& moe = ctx.kernels.moe;
  const BlockMarks& fm = moe.forward_marks;
  const BlockMarks& bm = moe.backward_marks;
  const BlockRules fr = forward_rules(ctx, moe), br = backward_rules(ctx, moe);
  const TaskRole fwd = TaskRole::kForward;
  const BackwardPart all = BackwardPart::kAll;
  in_lane(ctx, f, [&] {
    const BlockTemplate& attention = attention_block(ctx, l.forward);
    emit_block_forward(ctx, attention, forward_rules(ctx, attention), l.forward_mb, l.forward, fwd);
    emit_block_forward(ctx, moe, fr, l.forward_mb, l.forward, fwd, {0, fm.first_expert});
    add_ep_exchange(ctx, l.forward_mb, l.forward, fwd);
  });
  in_lane(ctx, b, [&] {
    redo_before_backward(ctx, ctx.kernels.moe_redo, l.backward, l.backward_mb, all);
    emit_block_backward(ctx, moe, br, l.backward_mb, l.backward, all, {0, bm.first_expert});
    add_ep_exchange(ctx, l.backward_mb, l.backward, TaskRole::kBackward);
  });
  in_lane(ctx, f, [&] {
    emit_block_forward(ctx, moe, fr, l.forward_mb, l.forward, fwd, {fm.first_expert, fm.last_expert + 1, false});
  });
  in_lane(ctx, b, [&] {
    emit_block_backward(ctx, moe, br, l.backward_mb, l.backward, all, {bm.first_expert, bm.last_expert + 1, false});
  });
  in_lane(ctx, f, [&] { emit_block_forward(ctx, moe, fr, l.forward_mb, l.forward, fwd, {fm.last_expert + 1, -1}); });
  TaskId last = 0;
  in_lane(ctx, b, [&] {
    emit_block_backward(ctx, moe, br, l.backward_mb, l.backward, all, {bm.last_expert + 1, -1});
    last = attention_backward(ctx, l.backward, l.backward_mb, all);
  });
  return last;
}

// Layer position k of both passes: merged when both are MoE layers, else each whole, forward first.
// Returns the backward layer's last weight-gradient task (when there is one).
TaskId merge_layers(BuildContext& ctx, Lane& f, Lane& b, const MergedLayers& l) {
  if (l.forward >= 0) take_param_gathers(ctx, l.forward, f.pending);
  const ModelSpec& m = ctx.run.model;
  // An MTP layer's module (its embedding, projection and head around the layer) runs whole.
  const auto mergeable_layer = [&](int l) { return l >= 0 && is_moe_layer(m, l) && !is_mtp_layer(m, l); };
  if (mergeable_layer(l.forward) && mergeable_layer(l.backward)) return merge_moe_layers(ctx, f, b, l);
  if (l.forward >= 0) in_lane(ctx, f, [&] { layer_forward(ctx, l.forward, l.forward_mb, TaskRole::kForward); });
  TaskId last = 0;
  if (l.backward >= 0)
    in_lane(ctx, b, [&] { last = layer_backward(ctx, l.backward, l.backward_mb, BackwardPart::kAll); });
  return last;
}

}  // namespace

bool mergeable(const ScheduleStep& a, const ScheduleStep& b) {
  const bool forward_then_backward = a.phase == Phase::kForward && b.phase == Phase::kBackward;
  const bool backward_then_forward = a.phase == Phase::kBackward && b.phase == Phase::kForward;
  if (forward_then_backward) return a.chunk != b.chunk || a.microbatch != b.microbatch;
  return backward_then_forward;
}

void emit_merged_passes(BuildContext& ctx, const ScheduleStep& forward, const ScheduleStep& backward,
                        bool final_pass) {
  const ChunkLayers& fc = ctx.chunks[static_cast<size_t>(forward.chunk)];
  const ChunkLayers& bc = ctx.chunks[static_cast<size_t>(backward.chunk)];
  Lane f{ctx.pending}, b{ctx.pending};  // what was pending before the step: both passes wait for it
  ctx.pending.clear();
  begin_pass(ctx, true);
  const int fmb = forward.microbatch, bmb = backward.microbatch;
  // Pipelined, each pass waits for its own input from the neighbouring stage: the forward for the
  // activation from the stage before, the backward for the gradient from the stage after.
  in_lane(ctx, f, [&] { add_pass_input(ctx, fc, fmb, false); });
  in_lane(ctx, b, [&] { add_pass_input(ctx, bc, bmb, true); });
  if (fc.has_embedding)
    in_lane(ctx, f, [&] {
      emit_block_forward(ctx, ctx.kernels.embedding, forward_rules(ctx, ctx.kernels.embedding), fmb, -1,
                         TaskRole::kForward);
    });
  if (bc.has_output)
    in_lane(ctx, b, [&] {
      const TaskId t = emit_block_backward(ctx, ctx.kernels.output, backward_rules(ctx, ctx.kernels.output), bmb, -1,
                                           BackwardPart::kAll);
      if (final_pass) grad_ready(ctx, backward.chunk, {t, ctx.kernels.output_params, 0}, bmb);
    });
  for (int k = 0; k < std::max(fc.layer_count, bc.layer_count); ++k) {
    MergedLayers l;
    l.forward = k < fc.layer_count ? fc.first_layer + k : -1;
    l.backward = k < bc.layer_count ? bc.first_layer + bc.layer_count - 1 - k : -1;
    l.forward_mb = fmb;
    l.backward_mb = bmb;
    const TaskId t = merge_layers(ctx, f, b, l);
    if (final_pass && l.backward >= 0)
      in_lane(ctx, b, [&] {
        grad_ready(ctx, backward.chunk, {t, layer_params(ctx, l.backward), layer_expert_params(ctx, l.backward)}, bmb);
      });
  }
  if (fc.has_output)
    in_lane(ctx, f, [&] {
      emit_block_forward(ctx, ctx.kernels.output, forward_rules(ctx, ctx.kernels.output), fmb, -1, TaskRole::kForward);
    });
  if (bc.has_embedding)
    in_lane(ctx, b, [&] {
      const TaskId t = emit_block_backward(ctx, ctx.kernels.embedding, backward_rules(ctx, ctx.kernels.embedding), bmb,
                                           -1, BackwardPart::kAll);
      if (final_pass) grad_ready(ctx, backward.chunk, {t, ctx.kernels.embedding_params, 0}, bmb);
    });
  ctx.pending = f.pending;
  ctx.pending.insert(ctx.pending.end(), b.pending.begin(), b.pending.end());
  // Both outputs leave after the merged step, as Megatron-Core sends them together after it.
  end_pass(ctx, (sends_output(fc, false) ? 1 : 0) + (sends_output(bc, true) ? 1 : 0),
           forward_instructions(fc.has_embedding, fc.has_output) + backward_instructions(bc.has_embedding, bc.has_output),
           fmb);
  add_pass_output(ctx, fc, fmb, false);
  add_pass_output(ctx, bc, bmb, true);
}

}  // namespace trainsim
