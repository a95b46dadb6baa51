// Extraction of the iteration formulas' inputs from a run (see iteration_inputs.hpp). The counts of
// collectives per layer follow the graph builder's partitioning rules (sim/graph/block_tasks.hpp):
// TP all-reduce (or SP all-gather + reduce-scatter) around the attention and FFN blocks, forward and
// backward, the SP re-gather for the weight gradient beside the backward; EP dispatch + combine per
// MoE layer and pass; CP K/V all-gather beside the local attention block, and dK/dV reduce-scatter;
// ZeRO-3 per-layer gathers; DP buckets; PP one message per micro-batch and chunk boundary.
#include "sim/analytic/iteration_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "sim/analytic/comm_times.hpp"
#include "sim/analytic/dp_inputs.hpp"
#include "sim/analytic/zero3_inputs.hpp"
#include "sim/analytic/device_memory.hpp"
#include "sim/analytic/layer_recompute.hpp"
#include "sim/analytic/merged_exposure.hpp"
#include "sim/analytic/pass_times.hpp"
#include "sim/analytic/stage_compute.hpp"
#include "sim/analytic/run_payloads.hpp"
#include "sim/analytic/shared_time.hpp"
#include "sim/model/moe_ops.hpp"
#include "sim/model/layer_ops.hpp"
#include "sim/model/mla_ops.hpp"
#include "sim/model/params.hpp"
#include "sim/model/shard.hpp"
#include "sim/strategy/ep_overlap.hpp"
#include "sim/strategy/schedule_shape.hpp"

namespace trainsim {
namespace {

struct TpCosts {
  double reduce = 0, gather = 0;  // one TP reduction (all-reduce, or SP reduce-scatter) and SP all-gather
  bool overlap = false;           // overlap.tp_comm: the forward's and the output gradient's gather pipelined
  // The same two pipelined with a GEMM under overlap: their bytes at 1/overlap_comm_slowdown of the
  // bandwidth (the replay's rate bound on their flows; Task::pipelined), their latency unchanged.
  double pipelined_reduce = 0, pipelined_gather = 0;
  // The TP region's input side, where it is narrower than h (MLA's attention latents,
  // BlockTemplate::tp_input_scale): the forward's gather, the backward's re-gather and reduction.
  double in_reduce = 0, in_gather = 0, in_pipelined_gather = 0;
  // The SP re-gather of a column-parallel GEMM's input is waited for by its weight gradients in the
  // same pass (not when ZB-H1 runs them in a W pass of their own).
  bool regather_waited = true;
  // Share of the micro-batches whose backward weight-gradient kernels run beside the reduction issued
  // before them: none when ZB-H1 moves them to a separate W pass or without overlap.tp_grad_reduce
  // (off under blocking launches; sim/graph/build_context.hpp); for the output layer, not those
  // deferred to the flush (strategy.defer_output_wgrad).
  double wgrad_beside = 1;
};

// One block's TP collectives in one pass: the SP all-gather before the first GEMM and the reduction
// after the last. Without overlap the next kernel waits for them; with overlap the forward's and
// the backward's gather are pipelined with their GEMM, exposed only where they outlast it. In the
// backward the reduction follows the last input-gradient GEMM in either case, beside the weight
// gradients after it (TpCosts::wgrad_beside), and the SP re-gather of that GEMM's input runs beside
// the GEMM, which the weight gradients wait for (sim/graph/block_tasks.cpp: tp_overlap).
void add_tp_block(const TpCosts& tp, const BlockPassTimes& b, bool backward, bool gathers, bool reduces,
                  StageInputs& out) {
  const double gather = !gathers ? 0 : backward ? (tp.overlap ? tp.pipelined_gather : tp.gather)
                                                : (tp.overlap ? tp.in_pipelined_gather : tp.in_gather);
  const double reduce = !reduces ? 0 : backward ? tp.in_reduce : tp.overlap ? tp.pipelined_reduce : tp.reduce;
  double beside = 0;
  if (!backward) {
    if (tp.overlap) beside = std::min(gather, b.forward_first_gemm) + std::min(reduce, b.forward_last_gemm);
    out.tp_hidden_forward += beside;
  } else {
    if (tp.overlap) beside = std::min(gather, b.backward_first_gemm);
    beside += tp.wgrad_beside * std::min(reduce, b.wgrad_after_last_gemm);
  }
  out.tp_exposed += gather + reduce - beside;
  out.tp_hidden += beside;
  if (backward && gathers && reduces) {
    const double regather_late = tp.regather_waited ? std::max(0.0, tp.in_gather - b.backward_last_gemm) : 0;
    out.tp_exposed += regather_late;
    out.tp_hidden += tp.in_gather - regather_late;
  }
}

// The segments of layer `l`'s MoE block that combined 1F1B interleaves (sim/analytic/merged_exposure.hpp),
// with the backward's selective recompute and its attention backward.
MergedSegments merged_segments(const RunSpec& run, const BlockTimes& bt, int l) {
  const BlockPassTimes& moe = bt.moe;
  const bool window = is_window_layer(run.model, l);
  const BlockPassTimes& attention = bt.attention_of(window);
  const RedoTimes& attention_redo = bt.attention_redo_of(window);
  MergedSegments s;
  s.b_before = bt.moe_redo.seconds + moe.backward_before_experts;
  s.f_experts = moe.forward_experts;
  s.b_experts = moe.backward_experts;
  s.f_after = moe.forward - moe.forward_before_dispatch - moe.forward_experts;
  s.b_after = moe.backward_input + moe.weight_grad - moe.backward_before_experts - moe.backward_experts +
              attention_redo.seconds + attention.backward_input + attention.weight_grad;
  s.b_wgrad = moe.wgrad_after_last_expert;
  return s;
}

// A TP collective of `bytes` (`gather`: the SP all-gather, else the reduction), at 1/slowdown of the
// bandwidth when `pipelined` with a GEMM under overlap.tp_comm.
double tp_collective(const RunSpec& run, const CommCosts& cc, int rank, bool gather, Bytes bytes, bool pipelined) {
  const auto& s = run.strategy;
  const double slowdown = run.platform.accelerator.overlap_comm_slowdown;
  if (pipelined && s.overlap.tp_comm && slowdown > 1) bytes *= slowdown;
  if (gather) return s.sequence_parallel ? cc.collective(rank, Dim::kTp, CollectiveKind::kAllGather, bytes) : 0;
  const auto kind = s.sequence_parallel ? CollectiveKind::kReduceScatter : CollectiveKind::kAllReduce;
  return cc.collective(rank, Dim::kTp, kind, bytes);
}

// The TP costs `tp` with the TP region's input side `input_scale` times h wide (TpCosts::in_*).
TpCosts with_input_scale(TpCosts tp, const RunSpec& run, const CommCosts& cc, int rank, const Payloads& pl,
                         double input_scale) {
  tp.in_reduce = tp_collective(run, cc, rank, false, pl.tp * input_scale, false);
  tp.in_gather = tp_collective(run, cc, rank, true, pl.tp_gather * input_scale, false);
  tp.in_pipelined_gather = tp_collective(run, cc, rank, true, pl.tp_gather * input_scale, true);
  return tp;
}

// One block's TP collectives' times, its input as wide as its output (h).
TpCosts tp_costs(const RunSpec& run, const CommCosts& cc, int rank, const Payloads& pl) {
  const auto& s = run.strategy;
  TpCosts tp;
  tp.reduce = tp.in_reduce = tp_collective(run, cc, rank, false, pl.tp, false);
  tp.gather = tp.in_gather = tp_collective(run, cc, rank, true, pl.tp_gather, false);
  tp.pipelined_reduce = tp_collective(run, cc, rank, false, pl.tp, true);
  tp.pipelined_gather = tp.in_pipelined_gather = tp_collective(run, cc, rank, true, pl.tp_gather, true);
  tp.overlap = s.overlap.tp_comm;
  const bool wgrad_pass_apart = s.schedule == "zb-h1";  // weight gradients in W passes of their own
  tp.wgrad_beside = !wgrad_pass_apart && s.overlap.tp_grad_reduce ? 1 : 0;
  tp.regather_waited = !wgrad_pass_apart;
  return tp;
}

// Per-layer, per-pass communication of one stage: TP, CP, EP and ZeRO-3 (per micro-batch).
// `merged`: the fraction of the stage's passes combined 1F1B merges (merged_steps over m v).
void add_layer_comm(const RunSpec& run, const CommCosts& cc, int rank, const Payloads& pl, const BlockTimes& bt,
                    const std::vector<ChunkLayers>& chunks, double merged_passes, StageInputs& out) {
  const auto& s = run.strategy;
  const bool sp = s.sequence_parallel;
  const TpCosts tp = tp_costs(run, cc, rank, pl);
  const double attention_scale = static_cast<double>(tp_input_width(run.model)) / run.model.hidden;
  const TpCosts attention_tp = run.model.is_mla() ? with_input_scale(tp, run, cc, rank, pl, attention_scale) : tp;
  // Whole experts over the tp ranks (strategy.expert_tp 1): the MoE block has no TP collectives but its
  // shared experts' (a dense TP MLP, bracketed as one: sim/model/moe_ops.hpp moe_gemm_in_tp_region).
  const TpCosts moe_tp = moe_block_has_tp(run.model, s) ? tp : TpCosts{};
  // eh_proj's input: the embedding and the hidden state side by side.
  const TpCosts mtp_tp = run.model.mtp_layers > 0 ? with_input_scale(tp, run, cc, rank, pl, 2) : tp;
  TpCosts output_tp = tp;  // the output layer's deferred weight gradients leave their reduction exposed
  output_tp.wgrad_beside *= 1 - run.deferred_output_wgrads() / static_cast<double>(run.microbatches());
  const double a2a = s.ep > 1 ? 2 * cc.collective(rank, Dim::kEp, CollectiveKind::kAllToAll, pl.ep) : 0;
  const double kv = s.cp > 1 ? cc.collective(rank, Dim::kCp, CollectiveKind::kAllGather, pl.cp_kv) : 0;
  const double dkv = s.cp > 1 ? cc.collective(rank, Dim::kCp, CollectiveKind::kReduceScatter, pl.cp_kv) : 0;
  const double kv_hidden = std::min(kv, bt.attention_kernel / s.cp);
  int position = 0;
  for (const ChunkLayers& c : chunks) {
    if (c.has_embedding) out.tp_exposed += tp.reduce;  // vocab-parallel embedding's reduction
    if (c.has_output) add_tp_block(tp, bt.output, false, sp, false, out), add_tp_block(output_tp, bt.output, true, false, true, out);
    for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l, ++position) {
      const bool moe = is_moe_layer(run.model, l);
      const LayerRecompute redo = layer_recompute(run, bt, l, position);
      const int forwards = redo.attention_again ? 2 : 1;  // of the attention (and MoE) block
      const BlockPassTimes& attention = bt.attention_of(is_window_layer(run.model, l));
      const std::tuple<const BlockPassTimes*, bool, const TpCosts*> blocks[] = {
          {&attention, redo.attention_again, &attention_tp}, {moe ? &bt.moe : &bt.mlp, redo.ffn_again, moe ? &moe_tp : &tp}};
      for (const auto& [b, again, costs] : blocks) {
        for (int f = 0; f < (again ? 2 : 1); ++f) add_tp_block(*costs, *b, false, sp, true, out);
        add_tp_block(*costs, *b, true, sp, true, out);
      }
      const bool mtp = is_mtp_layer(run.model, l);
      if (mtp) {  // its module (sim/graph/layer_tasks.cpp): the embedding's reduction, projection part, head
        out.tp_exposed += tp.reduce;
        for (int f = 0; f < forwards; ++f) add_tp_block(mtp_tp, bt.mtp_in, false, sp, true, out);
        add_tp_block(mtp_tp, bt.mtp_in, true, sp, true, out);
        add_tp_block(tp, bt.output, false, sp, false, out), add_tp_block(tp, bt.output, true, false, true, out);
      }
      if (moe) {
        // Backward: the exchange of the dispatch's gradient waits for the experts' weight gradients
        // too (one autograd node computes both; sim/graph/block_tasks.cpp), so nothing hides it.
        // Combined 1F1B: merged steps hide the all-to-alls of a forward and a backward behind each
        // other's kernels; `merged` of the micro-batches' passes run so (sim/strategy/ep_overlap.hpp).
        // An MTP layer's module runs whole (sim/graph/merged_passes.cpp).
        const double merged = mtp ? 0 : merged_passes;
        const double paired = merged > 0 ? merged_ep_exposed(merged_segments(run, bt, l), a2a / 2) : 0;
        out.ep_exposed += (1 - merged) * (forwards + 1) * a2a + merged * paired;
        out.ep_hidden += merged * (2 * a2a - paired);
        // Forward: the TP reduction and the EP combine after the last expert GEMM overlap each other.
        if (bt.moe.forward_ends_in_expert && !tp.overlap) out.tp_exposed -= forwards * std::min(moe_tp.reduce, a2a / 2);
      }
      out.cp_exposed += forwards * (kv - kv_hidden) + kv + dkv;
      out.cp_hidden += forwards * kv_hidden;
    }
  }
}

}  // namespace

namespace {

IterationInputs shape_of(const RunSpec& run) {
  const auto& s = run.strategy;
  IterationInputs in;
  in.shape = pipeline_shape(run);
  in.schedule = &find_schedule_closed_form(s.schedule);
  in.comm_interference = run.platform.accelerator.comm_interference;
  in.overlap_dp = s.overlap.dp_grad_reduce;
  in.overlap_param_gather = s.overlap.zero_param_gather;
  in.overlap_pp = s.overlap.pp_comm;
  return in;
}

void set_compute(const StageCompute& c, StageInputs& st) {
  st.forward = c.forward;
  st.backward_input = c.backward_input;
  st.weight_grad = c.weight_grad;
  st.recompute = c.recompute;
  st.optimizer = c.optimizer;
  st.offloaded_step = c.offloaded_step;
  st.deferred_wgrad = c.deferred_wgrad;
}

}  // namespace

IterationInputs extract_compute_inputs(const RunSpec& run) {
  IterationInputs in = shape_of(run);
  const BlockTimes bt = block_times(run);
  for (int stage = 0; stage < run.strategy.pp; ++stage) {
    StageInputs st;
    set_compute(stage_compute(run, bt, stage_chunks(pipeline_split(run), stage)), st);
    in.stages.push_back(st);
  }
  return in;
}

IterationInputs extract_iteration_inputs(const RunSpec& run, GroupPlacements* placements) {
  const auto& s = run.strategy;
  IterationInputs in = shape_of(run);
  const CommCosts cc(run, placements);
  const Payloads pl = payloads(run);
  const BlockTimes bt = block_times(run);
  const LayerParams lp = layer_params_of(run);
  const std::vector<DeviceMemory> memory = stage_memory(run);
  for (int stage = 0; stage < s.pp; ++stage) {
    const auto chunks = stage_chunks(pipeline_split(run), stage);
    const StageCompute c = stage_compute(run, bt, chunks);
    StageInputs st;
    set_compute(c, st);
    const int rank = cc.mesh().rank_at_stage(0, stage);
    const double merged = merged_steps(run, stage) / static_cast<double>(run.microbatches() * s.virtual_stages);
    add_layer_comm(run, cc, rank, pl, bt, chunks, merged, st);
    add_zero3_comm(run, cc, rank, pl, bt, chunks, lp, st);
    add_dp_comm(run, cc, rank, pl, c.params, bt, chunks, lp, st);
    const Bytes dp_bytes = s.zero_stage == 3 && !chunks.empty()
                               ? lp.layer[static_cast<size_t>(chunks.front().first_layer)] * pl.param_element
                               : s.grad_bucket_size;
    const DeviceMemory& mem = memory[static_cast<size_t>(stage)];
    const Bytes per_units = mem.activations - mem.recompute_transient;  // what the in-flight units hold
    st.activation_unit = mem.peak_in_flight > 0 ? per_units / mem.peak_in_flight : 0;
    st.memory_static = mem.total() - per_units;
    if (s.pp > 1) st.pp_hop = cc.p2p(rank, cc.mesh().rank_at_stage(0, stage + 1 < s.pp ? stage + 1 : stage - 1), pl.pp);
    const int64_t tied = tied_embedding_sync_params(run.model, s.tp, s.pp);
    if (tied > 0 && (stage == 0 || stage == s.pp - 1))
      st.tied_sync = cc.p2p(rank, cc.mesh().rank_at_stage(0, stage == 0 ? s.pp - 1 : 0), static_cast<double>(tied) * pl.grad_element);
    add_shared_time(run, LinkSharing(run, cc, pl, rank, dp_bytes), st);
    in.stages.push_back(st);
  }
  return in;
}

const SharedTerms& shared_terms(const IterationInputs& in, const StageInputs& s) {
  return s.shared[in.overlap_pp ? 1 : 0];
}

SharedTime shared_once(const IterationInputs& in, const StageInputs& s) {
  const SharedTerms& sh = shared_terms(in, s);
  SharedTime t = sh.once;
  if (!in.overlap_dp) return t;
  for (size_t i = 0; i < 2; ++i) {
    t.tp[i] += sh.once_reduce.tp[i];
    t.cp[i] += sh.once_reduce.cp[i];
    t.ep[i] += sh.once_reduce.ep[i];
  }
  return t;
}

double fullest_stage_memory(const IterationInputs& in) {
  double most = 0;
  for (int s = 0; s < in.shape.stages; ++s) most = std::max(most, stage_peak_memory(in, s));
  return most;
}

double stage_peak_memory(const IterationInputs& in, int stage) {
  const StageInputs& s = in.stages[static_cast<size_t>(stage)];
  return s.memory_static + in.schedule->peak_in_flight(in.shape, stage) * s.activation_unit;
}

}  // namespace trainsim
