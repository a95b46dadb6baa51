// Extraction of the iteration formulas' inputs from a run (see iteration_inputs.hpp). The counts of
// collectives per layer follow the graph builder's partitioning rules (sim/graph/block_tasks.hpp):
// TP all-reduce (or SP all-gather + reduce-scatter) around the attention and FFN blocks, forward and
// backward, the SP re-gather for the weight gradient beside the backward; EP dispatch + combine per
// MoE layer and pass; CP K/V all-gather beside the local attention block, and dK/dV reduce-scatter;
// ZeRO-3 per-layer gathers; DP buckets; PP one message per micro-batch and chunk boundary.
#include "sim/analytic/iteration_inputs.hpp"

#include <algorithm>
#include <cmath>

#include "sim/analytic/comm_times.hpp"
#include "sim/analytic/pass_times.hpp"
#include "sim/model/layer_ops.hpp"
#include "sim/model/params.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {
namespace {

struct Payloads {
  Bytes tp = 0, cp_kv = 0, ep = 0, pp = 0, grad_element = 0, param_element = 0;
};

Payloads payloads(const RunSpec& run) {
  const auto& s = run.strategy;
  const double e = activation_element_bytes(run.precision);
  const double b = run.micro_batch, s_local = static_cast<double>(run.seq_len) / s.cp, h = run.model.hidden;
  const Shard sh = shard_of(run);
  Payloads p;
  p.tp = b * s_local * h * e;
  p.cp_kv = 2.0 * b * run.seq_len * static_cast<double>(local_kv_heads(run.model, sh) * head_dim_of(run.model)) * e;
  const double tokens = b * s_local / (s.sequence_parallel ? s.tp : 1);
  p.ep = run.model.is_moe() ? tokens * run.model.moe.top_k * run.model.moe.capacity_factor * h * e : 0;
  p.pp = b * s_local * h * e / s.tp;
  p.grad_element = gradient_element_bytes(run);
  p.param_element = e;
  return p;
}

struct TpCosts {
  double reduce = 0, gather = 0;  // one TP reduction (all-reduce, or SP reduce-scatter) and SP all-gather
  bool overlap = false;           // overlap.tp_comm: each runs beside its GEMM
  bool split_w = false;           // ZB-H1: weight-gradient kernels run in a separate W pass
};

// One block's TP collectives in one pass: the SP all-gather before the first GEMM and the reduction
// after the last. Without overlap the next kernel waits for them, except that in an unsplit
// backward the weight-gradient kernels after the last input-gradient GEMM run beside the
// reduction; with overlap only what outlasts its GEMM is exposed. The backward's SP re-gather of
// the GEMM input runs beside the input-gradient GEMM.
void add_tp_block(const TpCosts& tp, const BlockPassTimes& b, bool backward, bool gathers, bool reduces,
                  StageInputs& out) {
  const double gather = gathers ? tp.gather : 0, reduce = reduces ? tp.reduce : 0;
  const double first = backward ? b.backward_first_gemm : b.forward_first_gemm;
  const double last = backward ? b.backward_last_gemm : b.forward_last_gemm;
  double beside = 0;
  if (tp.overlap) beside = std::min(gather, first) + std::min(reduce, last);
  else if (backward && !tp.split_w) beside = std::min(reduce, b.wgrad_after_last_gemm);
  out.tp_exposed += gather + reduce - beside;
  out.tp_hidden += beside + (backward && gathers && reduces ? tp.gather : 0);
  if (!backward) out.tp_hidden_forward += beside;
}

// Per-layer, per-pass communication of one stage: TP, CP, EP and ZeRO-3 (per micro-batch).
void add_layer_comm(const RunSpec& run, const CommCosts& cc, int rank, const Payloads& pl, const BlockTimes& bt,
                    const std::vector<ChunkLayers>& chunks, StageInputs& out) {
  const auto& s = run.strategy;
  const bool sp = s.sequence_parallel;
  TpCosts tp;
  tp.reduce = cc.collective(rank, Dim::kTp, sp ? CollectiveKind::kReduceScatter : CollectiveKind::kAllReduce, pl.tp);
  tp.gather = sp ? cc.collective(rank, Dim::kTp, CollectiveKind::kAllGather, pl.tp) : 0;
  tp.overlap = s.overlap.tp_comm;
  tp.split_w = s.schedule == "zb-h1";
  const double a2a = s.ep > 1 ? 2 * cc.collective(rank, Dim::kEp, CollectiveKind::kAllToAll, pl.ep) : 0;
  const double kv = s.cp > 1 ? cc.collective(rank, Dim::kCp, CollectiveKind::kAllGather, pl.cp_kv) : 0;
  const double dkv = s.cp > 1 ? cc.collective(rank, Dim::kCp, CollectiveKind::kReduceScatter, pl.cp_kv) : 0;
  const double kv_hidden = std::min(kv, bt.attention_kernel / s.cp);
  int position = 0;
  for (const ChunkLayers& c : chunks) {
    if (c.has_embedding) out.tp_exposed += tp.reduce;  // vocab-parallel embedding's reduction
    if (c.has_output) add_tp_block(tp, bt.output, false, sp, false, out), add_tp_block(tp, bt.output, true, false, true, out);
    for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l, ++position) {
      const bool full = s.recompute == Recompute::kFull && (s.recompute_layers <= 0 || position < s.recompute_layers);
      const int forwards = full ? 2 : 1;
      for (const BlockPassTimes* b : {&bt.attention, is_moe_layer(run.model, l) ? &bt.moe : &bt.mlp}) {
        for (int f = 0; f < forwards; ++f) add_tp_block(tp, *b, false, sp, true, out);
        add_tp_block(tp, *b, true, sp, true, out);
      }
      if (is_moe_layer(run.model, l)) out.ep_exposed += (forwards + 1) * a2a;
      out.cp_exposed += forwards * (kv - kv_hidden) + kv + dkv;
      out.cp_hidden += forwards * kv_hidden;
    }
  }
}

// Parameters of one layer, of the embedding and of the output layer on one device (counts).
struct LayerParams {
  std::vector<double> layer;  // by global layer index
  double embedding = 0, output = 0;
};

LayerParams layer_params_of(const RunSpec& run) {
  const auto& s = run.strategy;
  LayerParams p;
  for (int l = 0; l < run.model.layers; ++l)
    p.layer.push_back(static_cast<double>(device_params(run.model, {l}, false, false, s.tp, s.ep).total()));
  p.embedding = static_cast<double>(device_params(run.model, {}, true, false, s.tp, s.ep).embedding);
  p.output = static_cast<double>(device_params(run.model, {}, false, true, s.tp, s.ep).total());
  return p;
}

// ZeRO-3 (per micro-batch): each layer's parameters gathered before its forward and again before
// its backward, its gradients reduce-scattered after it; all on the one DP stream, in order.
// Without prefetch the compute waits for each gather, and a backward gather queues behind the
// previous layer's reduce-scatter. With one layer of prefetch only the first gather of each chunk
// pass waits; the others wait for what outlasts the previous layer's compute.
void add_zero3_comm(const RunSpec& run, const CommCosts& cc, int rank, const Payloads& pl, const BlockTimes& bt,
                    const std::vector<ChunkLayers>& chunks, const LayerParams& lp, StageInputs& out) {
  const auto& s = run.strategy;
  if (s.zero_stage != 3 || s.dp <= 1) return;
  const bool prefetch = s.overlap.zero_param_gather;
  for (const ChunkLayers& c : chunks) {
    for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l) {
      const double params = lp.layer[static_cast<size_t>(l)];
      const double ag = cc.collective(rank, Dim::kDp, CollectiveKind::kAllGather, params * pl.param_element);
      const double rs = cc.collective(rank, Dim::kDp, CollectiveKind::kReduceScatter, params * pl.grad_element);
      const BlockPassTimes& ffn = is_moe_layer(run.model, l) ? bt.moe : bt.mlp;
      const double fwd = bt.attention.forward + ffn.forward;
      const double bwd = bt.attention.backward_input + bt.attention.weight_grad + ffn.backward_input + ffn.weight_grad;
      // The forward walks the layers up, the backward down: lowest and highest open their pass.
      const bool lowest = l == c.first_layer, highest = l == c.first_layer + c.layer_count - 1;
      double exposed = 0;
      // The lowest layer's reduce-scatter is waited for by the next pass's first gather (or, after
      // the last micro-batch, by the optimizer): m of them per iteration, one per micro-batch.
      if (!prefetch) exposed = 2 * ag + (highest ? 0 : rs) + (lowest ? rs : 0);
      else exposed = (lowest ? ag + rs : std::max(0.0, ag - fwd)) + (highest ? ag : std::max(0.0, ag + rs - bwd));
      out.zero3_exposed += exposed;
      out.zero3_hidden += std::max(0.0, 2 * ag + rs - exposed);
    }
  }
}

// Gradient buckets in the order their last backward completes them (chunks in reverse, output
// first, layers descending, embedding last), cut once a bucket reaches grad_bucket_size, as the
// graph builder cuts them (sim/graph/grad_sync.cpp). Bytes per bucket.
std::vector<Bytes> grad_buckets(const RunSpec& run, const std::vector<ChunkLayers>& chunks, const LayerParams& lp,
                                double element) {
  std::vector<double> ready;
  for (auto c = chunks.rbegin(); c != chunks.rend(); ++c) {
    if (c->has_output) ready.push_back(lp.output);
    for (int l = c->first_layer + c->layer_count - 1; l >= c->first_layer; --l) ready.push_back(lp.layer[static_cast<size_t>(l)]);
    if (c->has_embedding) ready.push_back(lp.embedding);
  }
  std::vector<Bytes> buckets;
  double bucket = 0;
  for (size_t i = 0; i < ready.size(); ++i) {
    bucket += ready[i];
    if (i + 1 < ready.size() && bucket * element < run.strategy.grad_bucket_size) continue;
    buckets.push_back(bucket * element);
    bucket = 0;
  }
  return buckets;
}

// ZeRO-1/2 parameter gathers with prefetch: per chunk, embedding and layers in forward order (the
// output joins the last layer), cut once a bucket reaches grad_bucket_size (grad_sync.cpp).
std::vector<Bytes> param_buckets(const RunSpec& run, const std::vector<ChunkLayers>& chunks, const LayerParams& lp,
                                 double element) {
  std::vector<Bytes> buckets;
  for (const ChunkLayers& c : chunks) {
    double params = c.has_embedding ? lp.embedding : 0;
    const int end = c.first_layer + c.layer_count;
    for (int l = c.first_layer; l < end; ++l) {
      params += lp.layer[static_cast<size_t>(l)] + (l + 1 == end && c.has_output ? lp.output : 0);
      if (params * element < run.strategy.grad_bucket_size && l + 1 < end) continue;
      buckets.push_back(params * element);
      params = 0;
    }
  }
  return buckets;
}

// Once per iteration: DP gradient buckets and ZeRO-1/2 parameter gathers.
void add_dp_comm(const RunSpec& run, const CommCosts& cc, int rank, const Payloads& pl, double params,
                 const std::vector<ChunkLayers>& chunks, const LayerParams& lp, StageInputs& out) {
  const auto& s = run.strategy;
  if (s.dp <= 1) return;
  const bool sharded = s.zero_stage == 1 || s.zero_stage == 2;
  if (s.zero_stage < 3) {
    const CollectiveKind kind = sharded ? CollectiveKind::kReduceScatter : CollectiveKind::kAllReduce;
    for (Bytes b : grad_buckets(run, chunks, lp, pl.grad_element)) {
      out.dp_last_bucket = cc.collective(rank, Dim::kDp, kind, b);
      out.dp_reduce += out.dp_last_bucket;
    }
  }
  if (!sharded) return;
  const std::vector<Bytes> gathers = s.overlap.zero_param_gather ? param_buckets(run, chunks, lp, pl.param_element)
                                                                 : std::vector<Bytes>{params * pl.param_element};
  for (Bytes b : gathers) out.param_gather += cc.collective(rank, Dim::kDp, CollectiveKind::kAllGather, b);
  out.param_first_bucket = cc.collective(rank, Dim::kDp, CollectiveKind::kAllGather, gathers.front());
}

}  // namespace

IterationInputs extract_iteration_inputs(const RunSpec& run) {
  const auto& s = run.strategy;
  IterationInputs in;
  in.shape = {s.pp, run.microbatches(), s.virtual_stages};
  in.schedule = &find_schedule_closed_form(s.schedule);
  in.comm_interference = run.platform.accelerator.comm_interference;
  in.overlap_dp = s.overlap.dp_grad_reduce;
  in.overlap_param_gather = s.overlap.zero_param_gather;
  in.overlap_pp = s.overlap.pp_comm;
  const CommCosts cc(run);
  const Payloads pl = payloads(run);
  const BlockTimes bt = block_times(run);
  const LayerParams lp = layer_params_of(run);
  for (int stage = 0; stage < s.pp; ++stage) {
    const auto chunks = stage_chunks(run.model.layers, s.pp, s.virtual_stages, stage);
    const StageCompute c = stage_compute(run, bt, chunks);
    StageInputs st;
    st.forward = c.forward;
    st.backward_input = c.backward_input;
    st.weight_grad = c.weight_grad;
    st.recompute = c.recompute;
    st.optimizer = c.optimizer;
    const int rank = cc.mesh().rank_at_stage(0, stage);
    add_layer_comm(run, cc, rank, pl, bt, chunks, st);
    add_zero3_comm(run, cc, rank, pl, bt, chunks, lp, st);
    add_dp_comm(run, cc, rank, pl, c.params, chunks, lp, st);
    if (s.pp > 1) st.pp_hop = cc.p2p(rank, cc.mesh().rank_at_stage(0, stage + 1 < s.pp ? stage + 1 : stage - 1), pl.pp);
    in.stages.push_back(st);
  }
  return in;
}

}  // namespace trainsim
