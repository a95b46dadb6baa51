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

bool sends_output(const ChunkLayers& c, bool backward) { return backward ? !c.has_embedding : !c.has_output; }

void add_pass_input(BuildContext& ctx, const ChunkLayers& c, int mb, bool backward) {
  if (backward ? c.has_output : c.has_embedding) return;
  add_recv(ctx, backward ? +1 : -1, mb, backward ? "pp.recv_gradient" : "pp.recv_activation");
}

void add_pass_output(BuildContext& ctx, const ChunkLayers& c, int mb, bool backward) {
  if (!sends_output(c, backward)) return;
  add_send(ctx, backward ? -1 : +1, mb, backward ? "pp.send_gradient" : "pp.send_activation");
}

void add_send(BuildContext& ctx, int offset, int mb, const char* label) {
  const TaskId send = add_comm_after_compute(ctx, p2p_message(ctx, TaskKind::kSend, offset, ctx.pp_bytes, mb, label));
  // Without p2p overlap (Megatron before 2022) the next kernel waits until the send completed.
  if (!ctx.run.strategy.overlap.pp_comm) ctx.pending.push_back(send);
}

}  // namespace trainsim
