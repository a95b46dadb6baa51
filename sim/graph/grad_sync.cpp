#include "sim/graph/grad_sync.hpp"

#include <algorithm>

#include "sim/graph/layer_tasks.hpp"
#include "sim/model/layer_ops.hpp"

namespace trainsim {
namespace {

bool sharded_optimizer(const BuildContext& ctx) {
  return ctx.run.strategy.zero_stage == 1 || ctx.run.strategy.zero_stage == 2;
}

// Parameters whose gradients were made ready, split as they are reduced: (dp x cp group, experts' group).
std::pair<double, double> all_params(const BuildContext& ctx, bool apart) {
  double dense = 0, expert = 0;
  for (const auto& chunk : ctx.grad_ready)
    for (const auto& entry : chunk) {
      const double e = apart ? entry.expert : 0;
      dense += entry.params - e;
      expert += e;
    }
  return {dense, expert};
}

Task param_gather(BuildContext& ctx, double params, Dim dim) {
  return collective_task(ctx, "zero.param_all_gather", CollectiveKind::kAllGather, dim,
                         params * ctx.param_element, TaskRole::kOptimizer, -1, -1);
}

// Whether the routed experts' parameters form buckets of their own (ep > 1: Megatron-Core's
// expert buffers, reduced over the expert data-parallel group), and whether that group has
// anything to reduce (cp*dp/ep > 1).
bool experts_apart(const BuildContext& ctx) { return ctx.run.strategy.ep > 1; }
bool experts_reduced(const BuildContext& ctx) { return expert_grad_degree(ctx.run.strategy) > 1; }

// Two bucket fills, one per parameter group (the dp x cp group, and the experts' group when apart).
struct BucketFill {
  double dense = 0, expert = 0;
  std::vector<int> dense_layers, expert_layers;  // layers waiting for the bucket being filled
};

// Reduces the gradients in buckets as they become ready: the dp x cp group's and, with ep > 1, the
// routed experts' apart (Megatron-Core's separate expert buffers, over the expert data-parallel
// group; nothing to reduce when that group is one device). Both fill in ready order and share the
// DP stream, each bucket issued when it fills.
void emit_grad_buckets(BuildContext& ctx) {
  const auto& s = ctx.run.strategy;
  std::vector<BuildContext::GradReady> ready;
  for (const auto& chunk : ctx.grad_ready) ready.insert(ready.end(), chunk.begin(), chunk.end());
  std::stable_sort(ready.begin(), ready.end(), [](const auto& a, const auto& b) { return a.task < b.task; });
  const int64_t last_compute = ctx.graph.last_on(Stream::kCompute);
  const CollectiveKind kind = sharded_optimizer(ctx) ? CollectiveKind::kReduceScatter : CollectiveKind::kAllReduce;
  const char* label = sharded_optimizer(ctx) ? "dp.grad_reduce_scatter" : "dp.grad_all_reduce";
  const bool apart = experts_apart(ctx), reduced = experts_reduced(ctx);
  double dense = 0, expert = 0;
  auto issue = [&](double& params, Dim dim, TaskId ready_at, bool last) {
    if (params <= 0 || (!last && params * ctx.grad_element < s.grad_bucket_size)) return;
    const TaskId after = s.overlap.dp_grad_reduce ? ready_at : static_cast<TaskId>(last_compute);
    ctx.graph.add(collective_task(ctx, label, kind, dim, params * ctx.grad_element, TaskRole::kBackward, -1, -1),
                  {after});
    params = 0;
  };
  for (size_t i = 0; i < ready.size(); ++i) {
    const double e = apart ? ready[i].expert : 0;
    dense += ready[i].params - e;
    if (reduced) expert += e;
    const bool last = i + 1 == ready.size();
    issue(dense, Dim::kDpCp, ready[i].task, last);
    issue(expert, Dim::kEdp, ready[i].task, last);
  }
}

}  // namespace

void emit_param_prefetch(BuildContext& ctx) {
  const size_t layers = static_cast<size_t>(ctx.run.model.layers);
  ctx.layer_param_gather.assign(layers, -1);
  ctx.layer_expert_gather.assign(layers, -1);
  const auto& s = ctx.run.strategy;
  if (s.dp * s.cp <= 1 || !sharded_optimizer(ctx) || !s.overlap.zero_param_gather) return;
  const double bucket_params = s.grad_bucket_size / ctx.weight_element;
  const bool apart = experts_apart(ctx);
  for (const ChunkLayers& chunk : ctx.chunks) {
    BucketFill fill;
    fill.dense = chunk.has_embedding ? ctx.kernels.embedding_params : 0;
    const int end = chunk.first_layer + chunk.layer_count;
    for (int layer = chunk.first_layer; layer < end; ++layer) {
      const bool last = layer + 1 == end;
      const double expert = apart ? layer_expert_params(ctx, layer) : 0;
      fill.dense += layer_params(ctx, layer) - expert + (last && chunk.has_output ? ctx.kernels.output_params : 0);
      fill.dense_layers.push_back(layer);
      if (expert > 0 && experts_reduced(ctx)) fill.expert += expert, fill.expert_layers.push_back(layer);
      if (fill.dense >= bucket_params || (last && !fill.dense_layers.empty())) {
        const TaskId gather = ctx.graph.add(param_gather(ctx, fill.dense, Dim::kDpCp));
        for (int l : fill.dense_layers) ctx.layer_param_gather[static_cast<size_t>(l)] = gather;
        fill.dense_layers.clear(), fill.dense = 0;
      }
      if (fill.expert >= bucket_params || (last && !fill.expert_layers.empty())) {
        const TaskId gather = ctx.graph.add(param_gather(ctx, fill.expert, Dim::kEdp));
        for (int l : fill.expert_layers) ctx.layer_expert_gather[static_cast<size_t>(l)] = gather;
        fill.expert_layers.clear(), fill.expert = 0;
      }
    }
  }
}

void emit_grad_sync_and_optimizer(BuildContext& ctx) {
  const auto& s = ctx.run.strategy;
  const bool reduce = s.dp * s.cp > 1 && s.zero_stage < 3;
  if (reduce) emit_grad_buckets(ctx);
  const int64_t last_dp = ctx.graph.last_on(Stream::kDp);
  if (last_dp >= 0) ctx.pending.push_back(static_cast<TaskId>(last_dp));
  add_compute(ctx, ctx.kernels.optimizer);
  if (reduce && sharded_optimizer(ctx) && !s.overlap.zero_param_gather) {
    const auto [dense, expert] = all_params(ctx, experts_apart(ctx));
    ctx.pending.push_back(add_comm_after_compute(ctx, param_gather(ctx, dense, Dim::kDpCp)));
    if (expert > 0 && experts_reduced(ctx))
      ctx.pending.push_back(add_comm_after_compute(ctx, param_gather(ctx, expert, Dim::kEdp)));
    Task end;
    end.label = ctx.graph.label("iteration.end");
    end.role = TaskRole::kOptimizer;
    add_compute(ctx, end);
  }
}

}  // namespace trainsim
