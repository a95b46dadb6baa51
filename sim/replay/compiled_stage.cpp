#include "sim/replay/compiled_stage.hpp"

#include <algorithm>

namespace trainsim {
namespace {

// Whether the compute task after the last compute predecessor of collective t depends on t
// (compute_pred_limit must be filled: it is one past that predecessor's position).
bool blocks_compute(const CompiledStage& cs, TaskId t) {
  const std::vector<TaskId>& compute = cs.graph->order(Stream::kCompute);
  const uint32_t after = cs.compute_pred_limit[t];
  if (after == 0 || after >= compute.size()) return false;
  const TaskId next = compute[after];
  const auto begin = cs.preds.begin() + cs.pred_begin[next], end = cs.preds.begin() + cs.pred_begin[next + 1];
  return std::find(begin, end, t) != end;
}

}  // namespace

CompiledStage compile_stage(const StageGraph& graph) {
  CompiledStage out;
  out.graph = &graph;
  const TaskDag& dag = graph.dag();
  const size_t n = graph.size();
  out.pred_begin.assign(n + 1, 0);
  out.cross_stream_successor.assign(n, 0);
  out.lone_successor.assign(n, kNoTask);
  std::vector<uint32_t> successors(n, 0);
  for (size_t t = 0; t < n; ++t) {
    out.pred_begin[t] = static_cast<uint32_t>(out.preds.size());
    for (auto [e, end] = boost::in_edges(t, dag); e != end; ++e) {
      const auto from = static_cast<TaskId>(boost::source(*e, dag));
      // Same-stream order is already guaranteed by the stream; only cross-stream edges wait.
      if (dag[from].stream == dag[t].stream) continue;
      out.preds.push_back(from);
      out.cross_stream_successor[from] |= static_cast<uint8_t>(1u << static_cast<int>(dag[t].stream));
      if (successors[from]++ == 0) out.lone_successor[from] = static_cast<TaskId>(t);
    }
  }
  out.pred_begin[n] = static_cast<uint32_t>(out.preds.size());
  for (size_t t = 0; t < n; ++t)
    if (successors[t] > 1) out.lone_successor[t] = kNoTask;
  out.order_index.assign(n, 0);
  for (int s = 0; s < kStreams; ++s) {
    const std::vector<TaskId>& order = graph.order(static_cast<Stream>(s));
    for (size_t i = 0; i < order.size(); ++i) out.order_index[order[i]] = static_cast<uint32_t>(i);
  }
  out.first_compute_successor.assign(n, std::numeric_limits<uint32_t>::max());
  out.compute_pred_limit.assign(n, 0);
  for (TaskId t = 0; t < n; ++t)
    for (uint32_t i = out.pred_begin[t]; i < out.pred_begin[t + 1]; ++i) {
      const TaskId p = out.preds[i];
      if (graph.task(t).stream == Stream::kCompute)
        out.first_compute_successor[p] = std::min(out.first_compute_successor[p], out.order_index[t]);
      if (graph.task(p).stream == Stream::kCompute)
        out.compute_pred_limit[t] = std::max(out.compute_pred_limit[t], out.order_index[p] + 1);
    }
  out.compute_blocking.assign(n, 0);
  for (TaskId t = 0; t < n; ++t)
    if (graph.task(t).kind == TaskKind::kCollective) out.compute_blocking[t] = blocks_compute(out, t) ? 1 : 0;
  return out;
}

}  // namespace trainsim
