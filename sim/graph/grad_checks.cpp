#include "sim/graph/grad_checks.hpp"

#include <utility>
#include <vector>

#include "sim/graph/host_time.hpp"
#include "sim/model/grad_bucket_ops.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {
namespace {

TaskId add_kernel(BuildContext& ctx, const Kernel& k, int microbatch) {
  Task t = to_task(k, ctx.run, ctx.graph, TaskRole::kBackward);
  t.microbatch = microbatch;
  return add_compute(ctx, t);
}

}  // namespace

TaskId bucket_kernels(BuildContext& ctx, double params, int microbatch, std::vector<TaskId> waits) {
  const auto& s = ctx.run.strategy;
  // The kernels wait for `waits` only: not for the collectives the next backward kernel waits for.
  std::vector<TaskId> pending = std::move(ctx.pending);
  ctx.pending = std::move(waits);
  TaskId last = 0;
  if (s.grad_nan_check) {
    last = add_kernel(ctx, grad_norm_kernel(params, ctx.grad_element), microbatch);
    host_sync(ctx, microbatch);
    // The reduction is launched once the host has read the norm: after the sync's host time, if any.
    last = static_cast<TaskId>(ctx.graph.last_on(Stream::kCompute));
  }
  if (s.grad_scale_kernel) last = add_kernel(ctx, grad_scale_kernel(params, ctx.grad_element), microbatch);
  ctx.pending.insert(ctx.pending.end(), pending.begin(), pending.end());
  return last;
}

int ready_items(const BuildContext& ctx) {
  int n = 0;
  for (const ChunkLayers& c : ctx.chunks) n += c.layer_count + (c.has_embedding ? 1 : 0) + (c.has_output ? 1 : 0);
  return n;
}

void grad_ready(BuildContext& ctx, int chunk, BuildContext::GradReady item, int microbatch) {
  auto& ready = ctx.grad_ready[static_cast<size_t>(chunk)];
  ready.push_back(item);
  // Without overlap the buckets are reduced after the backward (finish_grad_sync): grad_sync.cpp adds
  // their kernels there.
  const auto& s = ctx.run.strategy;
  if (!s.grad_bucket_kernels() || !reduces_gradients_in_buckets(s) || !s.overlap.dp_grad_reduce) return;
  const GradSplit g = grad_split(s, item.params, item.expert);
  ctx.check_dense += g.dense, ctx.check_expert += g.expert;
  const bool last = --ctx.ready_left == 0;
  // A dense and an expert bucket closing at one item: each reduction waits for its own bucket's kernels.
  BuildContext::GradReady& at = ready.back();
  const TaskId item_task = at.task;
  if (bucket_closes(ctx.check_dense, ctx.grad_element, s.grad_bucket_size, last))
    at.task = bucket_kernels(ctx, ctx.check_dense, microbatch, {}), ctx.check_dense = 0;
  if (bucket_closes(ctx.check_expert, ctx.grad_element, s.grad_bucket_size, last)) {
    const TaskId experts = bucket_kernels(ctx, ctx.check_expert, microbatch, {});
    ctx.check_expert = 0;
    if (at.task == item_task) at.task = experts;  // the dense bucket stays open: the item's last task
    else at.expert_task = experts;
  }
}

}  // namespace trainsim
