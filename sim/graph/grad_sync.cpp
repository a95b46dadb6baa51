#include "sim/graph/grad_sync.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/graph/grad_checks.hpp"
#include "sim/graph/host_time.hpp"
#include "sim/graph/layer_tasks.hpp"
#include "sim/graph/tied_grads.hpp"
#include "sim/model/layer_ops.hpp"

namespace trainsim {
namespace {

bool sharded_optimizer(const BuildContext& ctx) {
  return ctx.run.strategy.zero_stage == 1 || ctx.run.strategy.zero_stage == 2;
}

// Parameters whose gradients were made ready, split as they are reduced (grad_split).
GradSplit all_params(const BuildContext& ctx) {
  GradSplit total;
  for (const auto& chunk : ctx.grad_ready)
    for (const auto& entry : chunk) {
      const GradSplit g = grad_split(ctx.run.strategy, entry.params, entry.expert);
      total.dense += g.dense, total.expert += g.expert;
    }
  return total;
}

Task param_gather(BuildContext& ctx, double params, Dim dim) {
  return collective_task(ctx, "zero.param_all_gather", CollectiveKind::kAllGather, dim,
                         params * ctx.param_element, TaskRole::kOptimizer, -1, -1);
}

// A parameter bucket being filled for one group, and the layers whose first forward waits for it.
struct BucketFill {
  double params = 0;
  std::vector<int> layers;
};

// Reduces the gradients in buckets as they become ready: the dp x cp group's and, with ep > 1, the
// routed experts' apart (Megatron-Core's separate expert buffers, over the expert data-parallel
// group; nothing to reduce when that group is one device). Both fill in ready order and share the
// DP stream, each bucket issued when it fills.
void emit_grad_buckets(BuildContext& ctx) {
  const auto& s = ctx.run.strategy;
  const bool checks = s.grad_bucket_kernels();
  if (checks && s.overlap.dp_grad_reduce && ctx.ready_left != 0)
    throw std::logic_error("graph: " + std::to_string(ctx.ready_left) +
                           " gradient items were expected and not recorded; this is a defect of trainsim");
  std::vector<BuildContext::GradReady> ready;
  for (const auto& chunk : ctx.grad_ready) ready.insert(ready.end(), chunk.begin(), chunk.end());
  std::stable_sort(ready.begin(), ready.end(), [](const auto& a, const auto& b) { return a.task < b.task; });
  const int64_t last_compute = ctx.graph.last_on(Stream::kCompute);
  if (checks && !s.overlap.dp_grad_reduce) begin_pass(ctx, true);  // the host issuing the bucket kernels
  const CollectiveKind kind = sharded_optimizer(ctx) ? CollectiveKind::kReduceScatter : CollectiveKind::kAllReduce;
  const char* label = sharded_optimizer(ctx) ? "dp.grad_reduce_scatter" : "dp.grad_all_reduce";
  double dense = 0, expert = 0;
  int64_t previous = -1;  // the last reduction issued
  auto issue = [&](double& params, Dim dim, TaskId ready_at, bool last) {
    if (!bucket_closes(params, ctx.grad_element, s.grad_bucket_size, last)) return;
    TaskId after = s.overlap.dp_grad_reduce ? ready_at : static_cast<TaskId>(last_compute);
    if (checks && !s.overlap.dp_grad_reduce) {
      // After the backward, each bucket in turn: a synchronous reduction makes the compute stream wait
      // for it, so the next bucket's kernels follow the previous reduction.
      std::vector<TaskId> waits;
      if (previous >= 0) waits.push_back(static_cast<TaskId>(previous));
      after = bucket_kernels(ctx, params, ctx.microbatches - 1, std::move(waits));
    }
    previous = ctx.graph.add(
        collective_task(ctx, label, kind, dim, params * ctx.grad_element, TaskRole::kBackward, -1, -1), {after});
    params = 0;
  };
  for (size_t i = 0; i < ready.size(); ++i) {
    const GradSplit g = grad_split(s, ready[i].params, ready[i].expert);
    dense += g.dense, expert += g.expert;
    const bool last = i + 1 == ready.size();
    issue(dense, Dim::kDpCp, ready[i].task, last);
    issue(expert, Dim::kEdp, ready[i].expert_ready(), last);
  }
  // The host's segment after the backward ends with the last bucket's kernels: its launches count.
  if (checks && !s.overlap.dp_grad_reduce) host_sync(ctx, ctx.microbatches - 1);
}

}  // namespace

void emit_param_prefetch(BuildContext& ctx) {
  const size_t layers = static_cast<size_t>(ctx.run.model.layers + ctx.run.model.mtp_layers);
  ctx.layer_param_gather.assign(layers, -1);
  ctx.layer_expert_gather.assign(layers, -1);
  const auto& s = ctx.run.strategy;
  if (s.dp * s.cp <= 1 || !sharded_optimizer(ctx) || !s.overlap.zero_param_gather) return;
  // Megatron-Core's parameter and gradient buffers have one bucket size, counted in parameters (the
  // gathers are cut here in forward order, per chunk: their partial buckets fall elsewhere).
  const double bucket_params = s.grad_bucket_size / ctx.grad_element;
  // Issues the fill's gather once it is full (or the chunk ends), recording it for its layers.
  auto close = [&](BucketFill& f, Dim dim, std::vector<int64_t>& waits, bool last) {
    if (f.layers.empty() || (f.params < bucket_params && !last)) return;
    const TaskId gather = ctx.graph.add(param_gather(ctx, f.params, dim));
    for (int l : f.layers) waits[static_cast<size_t>(l)] = gather;
    f = BucketFill{};
  };
  for (const ChunkLayers& chunk : ctx.chunks) {
    BucketFill dense, expert;
    dense.params = chunk.has_embedding ? ctx.kernels.embedding_params : 0;
    const int end = chunk.first_layer + chunk.layer_count;
    for (int layer = chunk.first_layer; layer < end; ++layer) {
      const bool last = layer + 1 == end;
      const GradSplit g = grad_split(s, layer_params(ctx, layer), layer_expert_params(ctx, layer));
      dense.params += g.dense + (last && chunk.has_output ? ctx.kernels.output_params : 0);
      dense.layers.push_back(layer);
      if (g.expert > 0) expert.params += g.expert, expert.layers.push_back(layer);
      close(dense, Dim::kDpCp, ctx.layer_param_gather, last);
      close(expert, Dim::kEdp, ctx.layer_expert_gather, last);
    }
  }
}

void take_param_gathers(BuildContext& ctx, int layer, std::vector<TaskId>& pending) {
  for (auto* gathers : {&ctx.layer_param_gather, &ctx.layer_expert_gather}) {
    int64_t& bucket = (*gathers)[static_cast<size_t>(layer)];
    if (bucket >= 0) pending.push_back(static_cast<TaskId>(bucket)), bucket = -1;
  }
}

void emit_grad_sync_and_optimizer(BuildContext& ctx) {
  const auto& s = ctx.run.strategy;
  const bool reduce = reduces_gradients_in_buckets(s);
  if (reduce) emit_grad_buckets(ctx);
  const int64_t last_dp = ctx.graph.last_on(Stream::kDp);
  if (last_dp >= 0) ctx.pending.push_back(static_cast<TaskId>(last_dp));
  emit_tied_embedding_sync(ctx);
  add_compute(ctx, ctx.kernels.optimizer);
  if (reduce && sharded_optimizer(ctx) && !s.overlap.zero_param_gather) {
    const GradSplit all = all_params(ctx);
    ctx.pending.push_back(add_comm_after_compute(ctx, param_gather(ctx, all.dense, Dim::kDpCp)));
    if (all.expert > 0) ctx.pending.push_back(add_comm_after_compute(ctx, param_gather(ctx, all.expert, Dim::kEdp)));
    Task end;
    end.label = ctx.graph.label("iteration.end");
    end.role = TaskRole::kOptimizer;
    add_compute(ctx, end);
  }
}

}  // namespace trainsim
