#include "sim/graph/chunk_tasks.hpp"

#include "sim/graph/grad_checks.hpp"
#include "sim/graph/grad_sync.hpp"
#include "sim/graph/host_time.hpp"
#include "sim/graph/layer_tasks.hpp"
#include "sim/graph/p2p_tasks.hpp"
#include "sim/model/layer_ops.hpp"

namespace trainsim {
namespace {

bool zero3(const BuildContext& ctx) {
  return ctx.run.strategy.zero_stage == 3 && ctx.run.strategy.dp * ctx.run.strategy.cp > 1;
}

// A layer's ZeRO-3 collective of `kind` over its parameters: the dense ones over dp x cp and, with
// ep > 1, the routed experts' over their expert data-parallel group (none when that is one rank), the
// second right after the first on the DP stream. Returns the last task: waiting for it waits for both.
TaskId zero3_collective(BuildContext& ctx, const char* label, CollectiveKind kind, int layer, Bytes element, int mb,
                        TaskRole role) {
  const GradSplit g = grad_split(ctx.run.strategy, layer_params(ctx, layer), layer_expert_params(ctx, layer));
  auto issue = [&](Dim dim, double params) {
    return add_comm_after_compute(ctx, collective_task(ctx, label, kind, dim, params * element, role, mb, layer));
  };
  const TaskId dense = issue(Dim::kDpCp, g.dense);
  return g.expert > 0 ? issue(Dim::kEdp, g.expert) : dense;
}

TaskId zero3_gather(BuildContext& ctx, int layer, int mb, TaskRole role) {
  return zero3_collective(ctx, "zero3.param_all_gather", CollectiveKind::kAllGather, layer, ctx.param_element, mb,
                          role);
}

// ZeRO-3 gathers each layer's parameters before using it. With overlap, the gather for the next
// layer is issued when this layer starts (one layer of prefetch); without, just before it is used.
void gather_params(BuildContext& ctx, int layer, int next_layer, int mb, TaskRole role, bool first) {
  if (!zero3(ctx)) return;
  const bool prefetch = ctx.run.strategy.overlap.zero_param_gather;
  if (prefetch && !first && ctx.prefetched >= 0)
    ctx.pending.push_back(static_cast<TaskId>(ctx.prefetched));
  else
    ctx.pending.push_back(zero3_gather(ctx, layer, mb, role));
  ctx.prefetched = -1;
  if (prefetch && next_layer >= 0) ctx.prefetched = zero3_gather(ctx, next_layer, mb, role);
}

TaskId emit_output_backward(BuildContext& ctx, int mb, BackwardPart part) {
  return emit_block_backward(ctx, ctx.kernels.output, backward_rules(ctx, ctx.kernels.output), mb, -1, part);
}

bool recomputes(const BuildContext& ctx, int chunk, int layer) {
  if (ctx.run.strategy.recompute != Recompute::kFull) return false;
  const int limit = ctx.run.strategy.recompute_layers;
  if (limit <= 0) return true;
  int position = layer - ctx.chunks[static_cast<size_t>(chunk)].first_layer;
  for (int c = 0; c < chunk; ++c) position += ctx.chunks[static_cast<size_t>(c)].layer_count;
  return position < limit;
}

}  // namespace

void emit_chunk_forward(BuildContext& ctx, int chunk, int mb) {
  const ChunkLayers& c = ctx.chunks[static_cast<size_t>(chunk)];
  begin_pass(ctx, false);
  add_pass_input(ctx, c, mb, false);
  if (c.has_embedding)
    emit_block_forward(ctx, ctx.kernels.embedding, forward_rules(ctx, ctx.kernels.embedding), mb, -1,
                       TaskRole::kForward);
  const int end = c.first_layer + c.layer_count;
  for (int layer = c.first_layer; layer < end; ++layer) {
    take_param_gathers(ctx, layer, ctx.pending);
    gather_params(ctx, layer, layer + 1 < end ? layer + 1 : -1, mb, TaskRole::kForward, layer == c.first_layer);
    layer_forward(ctx, layer, mb, TaskRole::kForward);
  }
  if (c.has_output)
    emit_block_forward(ctx, ctx.kernels.output, forward_rules(ctx, ctx.kernels.output), mb, -1, TaskRole::kForward);
  end_pass(ctx, sends_output(c, false) ? 1 : 0, forward_instructions(c.has_embedding, c.has_output), mb);
  add_pass_output(ctx, c, mb, false);
}

void emit_chunk_backward(BuildContext& ctx, int chunk, int mb, BackwardPart part, bool final_pass) {
  const ChunkLayers& c = ctx.chunks[static_cast<size_t>(chunk)];
  const bool input_grads = part != BackwardPart::kWeightGrad;
  const bool weight_grads = part != BackwardPart::kInputGrad;
  begin_pass(ctx, true);
  if (input_grads) add_pass_input(ctx, c, mb, true);
  if (c.has_output) {
    // strategy.defer_output_wgrad: the first micro-batches' weight gradients wait for the flush, where
    // the output layer's gradient then completes (emit_deferred_output_wgrads).
    const bool defer = part == BackwardPart::kAll && mb < ctx.run.deferred_output_wgrads();
    const TaskId t = emit_output_backward(ctx, mb, defer ? BackwardPart::kInputGrad : part);
    if (defer) ctx.deferred_output.push_back(mb);
    if (final_pass && weight_grads && ctx.run.deferred_output_wgrads() == 0)
      grad_ready(ctx, chunk, {t, ctx.kernels.output_params, 0}, mb);
  }
  for (int layer = c.first_layer + c.layer_count - 1; layer >= c.first_layer; --layer) {
    if (input_grads) {
      gather_params(ctx, layer, layer > c.first_layer ? layer - 1 : -1, mb, TaskRole::kBackward,
                    layer == c.first_layer + c.layer_count - 1);
      if (recomputes(ctx, chunk, layer)) layer_forward(ctx, layer, mb, TaskRole::kRecompute);
    }
    const TaskId t = layer_backward(ctx, layer, mb, part);
    if (weight_grads && zero3(ctx))
      (void)zero3_collective(ctx, "zero3.grad_reduce_scatter", CollectiveKind::kReduceScatter, layer, ctx.grad_element,
                             mb, TaskRole::kBackward);
    if (final_pass && weight_grads)
      grad_ready(ctx, chunk, {t, layer_params(ctx, layer), layer_expert_params(ctx, layer)}, mb);
  }
  if (c.has_embedding) {
    const TaskId t = emit_block_backward(ctx, ctx.kernels.embedding, backward_rules(ctx, ctx.kernels.embedding), mb,
                                         -1, part);
    if (final_pass && weight_grads) grad_ready(ctx, chunk, {t, ctx.kernels.embedding_params, 0}, mb);
  }
  const bool sends = input_grads && sends_output(c, true);
  end_pass(ctx, sends ? 1 : 0, backward_instructions(c.has_embedding, c.has_output), mb);
  if (sends) add_pass_output(ctx, c, mb, true);
}

void emit_deferred_output_wgrads(BuildContext& ctx) {
  if (ctx.deferred_output.empty()) return;
  begin_pass(ctx, true);
  TaskId last = 0;
  for (int mb : ctx.deferred_output) last = emit_output_backward(ctx, mb, BackwardPart::kWeightGrad);
  // The output is in the last chunk; its gradient is complete once the last deferred one ran.
  grad_ready(ctx, static_cast<int>(ctx.chunks.size()) - 1, {last, ctx.kernels.output_params, 0},
             ctx.deferred_output.back());
  end_pass(ctx, 0, 0, ctx.deferred_output.back());
}

}  // namespace trainsim
