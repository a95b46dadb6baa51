#include "sim/graph/block_tasks.hpp"

#include "sim/graph/host_time.hpp"

namespace trainsim {
namespace {

Task stamped(Task t, int microbatch, int layer, TaskRole role) {
  t.microbatch = microbatch;
  t.layer = static_cast<int16_t>(layer);
  t.role = role;
  return t;
}

CollectiveKind tp_reduce_kind(const BuildContext& ctx) {
  return ctx.run.strategy.sequence_parallel ? CollectiveKind::kReduceScatter : CollectiveKind::kAllReduce;
}

// With overlap.tp_comm the collective is pipelined with its GEMM (chunked comm/GEMM overlap):
// it starts with the GEMM instead of around it, and the kernel after the GEMM waits for both.
// Pipelined so: the forward's SP all-gather and reduce-scatter and the backward's all-gather of the
// output gradient (Transformer Engine's ub_overlap_ag / ub_overlap_rs). The backward's reduction of the
// column-parallel input gradient is not pipelined with its dgrad GEMM (Megatron-Core's
// tp_comm_overlap_rs_dgrad defaults to False, NVIDIA/Megatron-LM megatron/core/model_parallel_config.py
// at 02aa3ee4): TE overlaps it in bulk with the weight-gradient GEMM and the re-gather of the GEMM
// input in bulk with the dgrad GEMM (ub_bulk_wgrad / ub_bulk_dgrad, both on by default; NVIDIA/
// TransformerEngine transformer_engine/pytorch/module/layernorm_linear.py at 0004dbd0, backward:
// BULK_OVERLAP_AG beside dgrad, BULK_OVERLAP_RS beside wgrad), the order the run has without
// overlap too.
bool tp_overlap(const BuildContext& ctx) { return ctx.run.strategy.overlap.tp_comm; }

// `scale`: the reduced tensor's width relative to h (BlockTemplate::tp_input_scale for a TP region's input).
void add_tp_reduce(BuildContext& ctx, int mb, int layer, TaskRole role, double scale = 1) {
  const bool sp = ctx.run.strategy.sequence_parallel;
  ctx.pending.push_back(add_comm_after_compute(
      ctx, collective_task(ctx, sp ? "tp.reduce_scatter" : "tp.all_reduce", tp_reduce_kind(ctx), Dim::kTp,
                           ctx.tp_bytes * scale, role, mb, layer)));
}

void add_comm(BuildContext& ctx, const char* label, CollectiveKind kind, Dim dim, Bytes bytes, int mb, int layer,
              TaskRole role) {
  ctx.pending.push_back(add_comm_after_compute(ctx, collective_task(ctx, label, kind, dim, bytes, role, mb, layer)));
}

// CP: the local quarter of attention needs only local K/V; the rest waits for the gathered K/V.
void add_cp_attention(BuildContext& ctx, Task t) {
  const double cp = ctx.run.strategy.cp;
  add_comm(ctx, "cp.kv_all_gather", CollectiveKind::kAllGather, Dim::kCp, ctx.cp_kv_bytes, t.microbatch, t.layer,
           t.role);
  const TaskId kv = ctx.pending.back();
  ctx.pending.pop_back();
  Task local = t, remote = t;
  local.duration = t.duration / cp;
  local.flops = t.flops / cp;
  remote.duration = t.duration - local.duration;
  remote.flops = t.flops - local.flops;
  add_compute(ctx, local);
  ctx.pending.push_back(kv);
  add_compute(ctx, remote);
}

// The SP all-gather that begins at kernel i, the block's first GEMM (which the GEMM waits for,
// unless overlapped), of a tensor `scale` times the hidden width. Returns it when overlapped: the
// kernel AFTER this one waits for it.
std::vector<TaskId> open_tp_gather(BuildContext& ctx, const BlockMarks& m, const BlockRules& rules, int i, int mb,
                                   int layer, TaskRole role, double scale) {
  if (i != m.first_gemm || !rules.gather_before_first_gemm) return {};
  add_comm(ctx, "tp.all_gather", CollectiveKind::kAllGather, Dim::kTp, ctx.tp_gather_bytes * scale, mb, layer, role);
  if (!tp_overlap(ctx)) return {};
  const TaskId gather = ctx.pending.back();
  ctx.pending.pop_back();
  ctx.graph.mutable_task(gather).pipelined = true;
  return {gather};
}

// The forward's reduction pipelined with its last GEMM (overlap): begun with the GEMM, waited for
// by the kernel after it.
TaskId pipelined_tp_reduce(BuildContext& ctx, int mb, int layer, TaskRole role) {
  add_tp_reduce(ctx, mb, layer, role);
  const TaskId reduce = ctx.pending.back();
  ctx.pending.pop_back();
  ctx.graph.mutable_task(reduce).pipelined = true;
  return reduce;
}

// Launches beyond one of kernel i (the task just added), for the host time.
void count_launches(BuildContext& ctx, const std::vector<ExtraLaunches>& extra, int i) {
  if (extra.empty()) return;
  const ExtraLaunches e = extra[static_cast<size_t>(i)];
  if (e.library > 0 || e.calls > 0) ctx.host_extras.emplace_back(ctx.graph.size() - 1, e);
}

// Whether the block's EP exchange is issued before kernel i: the first expert kernel, unless the
// span starts there and its caller issued the exchange.
bool leads_exchange(const KernelSpan& span, int i, const BlockMarks& m) {
  return i == m.first_expert && (span.lead_comm || i != span.begin);
}

// Without tensor parallelism a block has no TP collectives. With whole experts over the tp ranks
// (strategy.expert_tp 1) the MoE block's marks bracket its shared experts alone (moe_gemm_in_tp_region):
// without shared experts it has no first or last TP-region GEMM, so no collective is placed.
bool block_without_tp(const BuildContext& ctx) { return ctx.run.strategy.tp <= 1; }

}  // namespace

BlockRules forward_rules(const BuildContext& ctx, const BlockTemplate& block) {
  BlockRules r;
  if (block_without_tp(ctx)) return r;
  const bool is_output = &block == &ctx.kernels.output;
  const bool is_embedding = &block == &ctx.kernels.embedding;
  r.gather_before_first_gemm = ctx.run.strategy.sequence_parallel && !is_embedding;
  r.reduce_after_last_gemm = !is_output && !is_embedding;
  r.reduce_after_block = is_embedding;
  return r;
}

BlockRules backward_rules(const BuildContext& ctx, const BlockTemplate& block) {
  BlockRules r;
  if (block_without_tp(ctx) || &block == &ctx.kernels.embedding) return r;
  r.gather_before_first_gemm = ctx.run.strategy.sequence_parallel && &block != &ctx.kernels.output;
  r.reduce_after_last_gemm = true;
  return r;
}

void add_ep_exchange(BuildContext& ctx, int mb, int layer, TaskRole role) {
  if (role != TaskRole::kBackward && ctx.run.moe_dispatch_syncs()) host_sync(ctx, mb);
  if (ctx.run.strategy.ep > 1)
    add_comm(ctx, "ep.dispatch", CollectiveKind::kAllToAll, Dim::kEp, ctx.ep_bytes, mb, layer, role);
}

void emit_block_forward(BuildContext& ctx, const BlockTemplate& block, const BlockRules& rules, int mb, int layer,
                        TaskRole role, KernelSpan span) {
  const BlockMarks& m = block.forward_marks;
  const bool ep = ctx.run.strategy.ep > 1;
  const int size = static_cast<int>(block.forward.size());
  const int end = span.end < 0 ? size : span.end;
  for (int i = span.begin; i < end; ++i) {
    Task t = stamped(block.forward[static_cast<size_t>(i)], mb, layer, role);
    std::vector<TaskId> overlapped = open_tp_gather(ctx, m, rules, i, mb, layer, role, block.tp_input_scale);
    const bool reduces_here = i == m.last_gemm && rules.reduce_after_last_gemm;
    if (reduces_here && tp_overlap(ctx)) overlapped.push_back(pipelined_tp_reduce(ctx, mb, layer, role));
    if (leads_exchange(span, i, m)) add_ep_exchange(ctx, mb, layer, role);
    if (t.kernel_class == KernelClass::kAttention && ctx.run.strategy.cp > 1) {
      add_cp_attention(ctx, t);
    } else {
      add_compute(ctx, t);
    }
    count_launches(ctx, block.forward_extra_launches, i);
    if (i == m.host_sync_after) host_sync(ctx, mb);
    if (i == m.last_expert && ep)
      add_comm(ctx, "ep.combine", CollectiveKind::kAllToAll, Dim::kEp, ctx.ep_bytes, mb, layer, role);
    if (reduces_here && !tp_overlap(ctx)) add_tp_reduce(ctx, mb, layer, role);
    ctx.pending.insert(ctx.pending.end(), overlapped.begin(), overlapped.end());
  }
  if (rules.reduce_after_block && end == size) add_tp_reduce(ctx, mb, layer, role);
}

TaskId emit_block_backward(BuildContext& ctx, const BlockTemplate& block, const BlockRules& rules, int mb, int layer,
                           BackwardPart part, KernelSpan span) {
  const BlockMarks& m = block.backward_marks;
  const bool ep = ctx.run.strategy.ep > 1, cp = ctx.run.strategy.cp > 1;
  const TaskRole role = TaskRole::kBackward;
  // Under SP the input of the first (column-parallel) GEMM is stored sequence-sharded, so its
  // weight gradient needs it all-gathered again; Megatron issues that gather while the GEMM's
  // input gradient is computed (Korthikanti et al. 2022 §4.2.2 implementation).
  const bool regather = rules.gather_before_first_gemm && rules.reduce_after_last_gemm;
  // The gathered output gradient feeds the row-parallel layer's weight gradient too: with overlap,
  // where its all-gather is pipelined with the input-gradient GEMM, that kernel waits for it.
  int64_t gathered_output = -1;
  int64_t gathered_input = -1;
  int64_t last = -1;
  const int end = span.end < 0 ? static_cast<int>(block.backward.size()) : span.end;
  // The EP exchange of the dispatch's gradient follows the experts' backward. Run whole, that is
  // their weight gradients too: a grouped GEMM's backward computes input then weight gradients in
  // one autograd node (Transformer Engine's _GroupedLinear.backward, unless --delay-wgrad-compute),
  // and the all-to-all is issued by the next node, on a stream that waits for the compute stream.
  // A split backward (zero-bubble W later; combined 1F1B's spans) issues it after the input gradients.
  const bool whole = part == BackwardPart::kAll && span.begin == 0 && span.end < 0;
  const int exchange_after = whole ? m.last_expert_any : m.last_expert;
  for (int i = span.begin; i < end; ++i) {
    const bool wgrad = block.wgrad[static_cast<size_t>(i)] != 0;
    if ((part == BackwardPart::kInputGrad && wgrad) || (part == BackwardPart::kWeightGrad && !wgrad)) continue;
    const Task t = stamped(block.backward[static_cast<size_t>(i)], mb, layer, role);
    const bool attention = t.kernel_class == KernelClass::kAttention;
    const std::vector<TaskId> overlapped = open_tp_gather(ctx, m, rules, i, mb, layer, role, 1);
    if (!overlapped.empty()) gathered_output = overlapped.front();
    if (leads_exchange(span, i, m)) add_ep_exchange(ctx, mb, layer, role);
    if (attention && cp)
      add_comm(ctx, "cp.kv_all_gather", CollectiveKind::kAllGather, Dim::kCp, ctx.cp_kv_bytes, mb, layer, role);
    if (i == m.last_gemm && regather && part != BackwardPart::kWeightGrad)
      gathered_input = add_comm_after_compute(
          ctx, collective_task(ctx, "tp.regather_input", CollectiveKind::kAllGather, Dim::kTp,
                               ctx.tp_gather_bytes * block.tp_input_scale, role, mb, layer));
    last = add_compute(ctx, t, wgrad);
    count_launches(ctx, block.backward_extra_launches, i);
    if (wgrad && i > m.last_gemm && gathered_input >= 0) ctx.graph.add_dependency(static_cast<TaskId>(gathered_input), static_cast<TaskId>(last));
    if (wgrad && i > m.first_gemm && gathered_output >= 0) {  // the row-parallel GEMM's own (the first after it)
      ctx.graph.add_dependency(static_cast<TaskId>(gathered_output), static_cast<TaskId>(last));
      gathered_output = -1;
    }
    if (attention && cp)
      add_comm(ctx, "cp.dkv_reduce_scatter", CollectiveKind::kReduceScatter, Dim::kCp, ctx.cp_kv_bytes, mb, layer,
               role);
    if (i == exchange_after && ep)
      add_comm(ctx, "ep.combine", CollectiveKind::kAllToAll, Dim::kEp, ctx.ep_bytes, mb, layer, role);
    // After the input gradient's GEMM, beside the weight gradients, with or without overlap.tp_comm.
    if (i == m.last_gemm && rules.reduce_after_last_gemm) add_tp_reduce(ctx, mb, layer, role, block.tp_input_scale);
    ctx.pending.insert(ctx.pending.end(), overlapped.begin(), overlapped.end());
  }
  if (last < 0) last = ctx.graph.last_on(Stream::kCompute);
  return static_cast<TaskId>(last);
}

}  // namespace trainsim
