#include "sim/replay/compiled_stage.hpp"

namespace trainsim {

CompiledStage compile_stage(const StageGraph& graph) {
  CompiledStage out;
  out.graph = &graph;
  const TaskDag& dag = graph.dag();
  const size_t n = graph.size();
  out.pred_begin.assign(n + 1, 0);
  out.cross_stream_successor.assign(n, 0);
  for (size_t t = 0; t < n; ++t) {
    out.pred_begin[t] = static_cast<uint32_t>(out.preds.size());
    for (auto [e, end] = boost::in_edges(t, dag); e != end; ++e) {
      const auto from = static_cast<TaskId>(boost::source(*e, dag));
      // Same-stream order is already guaranteed by the stream; only cross-stream edges wait.
      if (dag[from].stream == dag[t].stream) continue;
      out.preds.push_back(from);
      out.cross_stream_successor[from] |= static_cast<uint8_t>(1u << static_cast<int>(dag[t].stream));
    }
  }
  out.pred_begin[n] = static_cast<uint32_t>(out.preds.size());
  return out;
}

}  // namespace trainsim
