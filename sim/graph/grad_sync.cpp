#include "sim/graph/grad_sync.hpp"

#include <algorithm>

#include "sim/model/layer_ops.hpp"

namespace trainsim {
namespace {

bool sharded_optimizer(const BuildContext& ctx) {
  return ctx.run.strategy.zero_stage == 1 || ctx.run.strategy.zero_stage == 2;
}

double chunk_params(const BuildContext& ctx, size_t chunk) {
  double total = 0;
  for (const auto& entry : ctx.grad_ready[chunk]) total += entry.second;
  return total;
}

double all_params(const BuildContext& ctx) {
  double total = 0;
  for (size_t c = 0; c < ctx.grad_ready.size(); ++c) total += chunk_params(ctx, c);
  return total;
}

Task param_gather(BuildContext& ctx, double params) {
  return collective_task(ctx, "zero.param_all_gather", CollectiveKind::kAllGather, Dim::kDp,
                         params * ctx.param_element, TaskRole::kOptimizer, -1, -1);
}

}  // namespace

void emit_param_prefetch(BuildContext& ctx) {
  ctx.layer_param_gather.assign(static_cast<size_t>(ctx.run.model.layers), -1);
  if (ctx.run.strategy.dp <= 1 || !sharded_optimizer(ctx) || !ctx.run.strategy.overlap.zero_param_gather) return;
  const double bucket_params = ctx.run.strategy.grad_bucket_size / ctx.weight_element;
  for (const ChunkLayers& chunk : ctx.chunks) {
    std::vector<int> waiting;  // layers of the bucket being filled
    double params = chunk.has_embedding ? ctx.kernels.embedding_params : 0;
    const int end = chunk.first_layer + chunk.layer_count;
    for (int layer = chunk.first_layer; layer < end; ++layer) {
      waiting.push_back(layer);
      params += is_moe_layer(ctx.run.model, layer) ? ctx.kernels.moe_layer_params : ctx.kernels.dense_layer_params;
      if (layer + 1 == end && chunk.has_output) params += ctx.kernels.output_params;
      if (params < bucket_params && layer + 1 < end) continue;
      const TaskId gather = ctx.graph.add(param_gather(ctx, params));
      for (int l : waiting) ctx.layer_param_gather[static_cast<size_t>(l)] = gather;
      waiting.clear();
      params = 0;
    }
  }
}

void emit_grad_sync_and_optimizer(BuildContext& ctx) {
  const auto& s = ctx.run.strategy;
  const bool reduce = s.dp > 1 && s.zero_stage < 3;
  if (reduce) {
    std::vector<std::pair<TaskId, double>> ready;
    for (const auto& chunk : ctx.grad_ready) ready.insert(ready.end(), chunk.begin(), chunk.end());
    std::stable_sort(ready.begin(), ready.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    const int64_t last_compute = ctx.graph.last_on(Stream::kCompute);
    const CollectiveKind kind = sharded_optimizer(ctx) ? CollectiveKind::kReduceScatter : CollectiveKind::kAllReduce;
    const char* label = sharded_optimizer(ctx) ? "dp.grad_reduce_scatter" : "dp.grad_all_reduce";
    double bucket = 0;
    for (size_t i = 0; i < ready.size(); ++i) {
      bucket += ready[i].second;
      const bool last = i + 1 == ready.size();
      if (!last && bucket * ctx.grad_element < s.grad_bucket_size) continue;
      const TaskId after = s.overlap.dp_grad_reduce ? ready[i].first : static_cast<TaskId>(last_compute);
      ctx.graph.add(collective_task(ctx, label, kind, Dim::kDp, bucket * ctx.grad_element, TaskRole::kBackward, -1, -1),
                    {after});
      bucket = 0;
    }
  }
  const int64_t last_dp = ctx.graph.last_on(Stream::kDp);
  if (last_dp >= 0) ctx.pending.push_back(static_cast<TaskId>(last_dp));
  add_compute(ctx, ctx.kernels.optimizer);
  if (reduce && sharded_optimizer(ctx) && !s.overlap.zero_param_gather) {
    ctx.pending.push_back(add_comm_after_compute(ctx, param_gather(ctx, all_params(ctx))));
    Task end;
    end.label = ctx.graph.label("iteration.end");
    end.role = TaskRole::kOptimizer;
    add_compute(ctx, end);
  }
}

}  // namespace trainsim
