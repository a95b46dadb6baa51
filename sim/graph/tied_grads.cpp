#include "sim/graph/tied_grads.hpp"

#include "sim/graph/p2p_tasks.hpp"
#include "sim/model/params.hpp"

namespace trainsim {

void emit_tied_embedding_sync(BuildContext& ctx) {
  const auto& s = ctx.run.strategy;
  const int64_t params = tied_embedding_sync_params(ctx.run.model, s.tp, s.pp);
  if (params == 0) return;
  bool first = false, last = false;
  for (const ChunkLayers& c : ctx.chunks) first = first || c.has_embedding, last = last || c.has_output;
  if (first == last) return;       // a middle stage (pp > 1: no stage holds both ends)
  const int offset = first ? -1 : 1;  // the other end, around the pipeline
  const Bytes bytes = static_cast<double>(params) * ctx.grad_element;
  const int64_t last_dp = ctx.graph.last_on(Stream::kDp);
  const TaskId send =
      add_comm_after_compute(ctx, p2p_message(ctx, TaskKind::kSend, offset, bytes, -1, "tied_embedding.grad_send"));
  if (last_dp >= 0) ctx.graph.add_dependency(static_cast<TaskId>(last_dp), send);
  const TaskId recv = ctx.graph.add(p2p_message(ctx, TaskKind::kRecv, offset, bytes, -1, "tied_embedding.grad_recv"));
  ctx.pending.push_back(send);
  ctx.pending.push_back(recv);
}

}  // namespace trainsim
