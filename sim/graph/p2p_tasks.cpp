#include "sim/graph/p2p_tasks.hpp"

namespace trainsim {

Task p2p_message(BuildContext& ctx, TaskKind kind, int offset, Bytes bytes, int microbatch, const char* label) {
  Task t;
  t.kind = kind;
  t.stream = kind == TaskKind::kSend ? Stream::kPpSend : Stream::kPpRecv;
  t.peer_offset = static_cast<int8_t>(offset);
  t.bytes = bytes;
  t.microbatch = microbatch;
  t.label = ctx.graph.label(label);
  return t;
}

void add_recv(BuildContext& ctx, int offset, int mb, const char* label) {
  ctx.pending.push_back(ctx.graph.add(p2p_message(ctx, TaskKind::kRecv, offset, ctx.pp_bytes, mb, label)));
}

void add_send(BuildContext& ctx, int offset, int mb, const char* label) {
  const TaskId send = add_comm_after_compute(ctx, p2p_message(ctx, TaskKind::kSend, offset, ctx.pp_bytes, mb, label));
  // Without p2p overlap (Megatron before 2022) the next kernel waits until the send completed.
  if (!ctx.run.strategy.overlap.pp_comm) ctx.pending.push_back(send);
}

}  // namespace trainsim
