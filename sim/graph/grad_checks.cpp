#include "sim/graph/grad_checks.hpp"

#include "sim/analytic/compute_time.hpp"
#include "sim/graph/host_time.hpp"
#include "sim/model/kernel_builders.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {
namespace {

bool checks_bucket(const BuildContext& ctx) {
  const auto& s = ctx.run.strategy;
  return (s.grad_nan_check || s.grad_scale_kernel) && s.dp * s.cp > 1 && s.zero_stage < 3;
}

TaskId add_kernel(BuildContext& ctx, const Kernel& k, int microbatch) {
  Task t;
  t.kind = TaskKind::kCompute;
  t.stream = Stream::kCompute;
  t.role = TaskRole::kBackward;
  t.microbatch = microbatch;
  t.kernel_class = k.cls;
  t.label = ctx.graph.label(k.name);
  t.flops = k.flops;
  t.bytes = k.bytes;
  t.duration = kernel_time(k, ctx.run.platform.accelerator);
  return add_compute(ctx, t);
}

}  // namespace

TaskId bucket_kernels(BuildContext& ctx, double params, int microbatch) {
  const auto& s = ctx.run.strategy;
  TaskId last = 0;
  if (s.grad_nan_check) {
    last = add_kernel(ctx, elementwise_kernel("dp.grad_norm", params, 1, 0, 2, ctx.grad_element), microbatch);
    host_sync(ctx, microbatch);
  }
  if (s.grad_scale_kernel) last = add_kernel(ctx, elementwise_kernel("dp.grad_scale", params, 1, 1, 1, ctx.grad_element), microbatch);
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
  if (!checks_bucket(ctx) || !ctx.run.strategy.overlap.dp_grad_reduce) return;
  const GradSplit g = grad_split(ctx.run.strategy, item.params, item.expert);
  ctx.check_dense += g.dense, ctx.check_expert += g.expert;
  const bool last = --ctx.ready_left == 0;
  for (double* fill : {&ctx.check_dense, &ctx.check_expert}) {
    if (*fill <= 0 || (!last && *fill * ctx.grad_element < ctx.run.strategy.grad_bucket_size)) continue;
    ready.back().task = bucket_kernels(ctx, *fill, microbatch);
    *fill = 0;
  }
}

}  // namespace trainsim
