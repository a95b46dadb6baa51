#include "sim/graph/grad_sync.hpp"

#include <algorithm>

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

std::vector<int64_t> emit_param_prefetch(BuildContext& ctx) {
  std::vector<int64_t> out(ctx.chunks.size(), -1);
  if (ctx.run.strategy.dp <= 1 || !sharded_optimizer(ctx) || !ctx.run.strategy.overlap.zero_param_gather) return out;
  // Parameter counts per chunk are known only after the backward is built, so the gathers are
  // sized later (size_param_prefetch); here they are placed first on the DP stream.
  for (size_t c = 0; c < ctx.chunks.size(); ++c) out[c] = ctx.graph.add(param_gather(ctx, 0));
  return out;
}

void size_param_prefetch(BuildContext& ctx, const std::vector<int64_t>& gathers) {
  for (size_t c = 0; c < gathers.size(); ++c)
    if (gathers[c] >= 0)
      ctx.graph.mutable_task(static_cast<TaskId>(gathers[c])).bytes = chunk_params(ctx, c) * ctx.param_element;
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
