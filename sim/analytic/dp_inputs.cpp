// DP / ZeRO communication of one stage (see dp_inputs.hpp).
#include "sim/analytic/dp_inputs.hpp"

#include <algorithm>

#include "sim/model/layer_ops.hpp"
#include "sim/model/params.hpp"

namespace trainsim {

LayerParams layer_params_of(const RunSpec& run) {
  const auto& s = run.strategy;
  LayerParams p;
  for (int l = 0; l < run.model.layers; ++l)
    p.layer.push_back(static_cast<double>(layer_params_on_device(run.model, l, s.tp, s.ep).total()));
  p.embedding = static_cast<double>(device_params(run.model, {}, true, false, s.tp, s.ep).embedding);
  p.output = static_cast<double>(device_params(run.model, {}, false, true, s.tp, s.ep).total());
  return p;
}

// ZeRO-3 (per micro-batch): each layer's parameters gathered before its forward and again before
// its backward, its gradients reduce-scattered after it; all on the one DP stream, in order.
// Without prefetch the compute waits for each gather, and a backward gather queues behind the
// previous layer's reduce-scatter. With one layer of prefetch only the first gather of each chunk
// pass waits; the others wait for what outlasts the previous layer's compute (and the exposed
// TP/CP/EP waits inside it). Must run after the TP/CP/EP inputs are filled.
void add_zero3_comm(const RunSpec& run, const CommCosts& cc, int rank, const Payloads& pl, const BlockTimes& bt,
                    const std::vector<ChunkLayers>& chunks, const LayerParams& lp, StageInputs& out) {
  const auto& s = run.strategy;
  if (s.zero_stage != 3 || s.dp <= 1) return;
  const bool prefetch = s.overlap.zero_param_gather;
  // The DP stream also runs while the compute waits on TP, CP or EP: their exposed time, spread
  // over every layer pass, widens each layer's window.
  int layers = 0;
  for (const ChunkLayers& c : chunks) layers += c.layer_count;
  const double waits = layers > 0 ? (out.tp_exposed + out.cp_exposed + out.ep_exposed) / (2.0 * layers) : 0;
  for (const ChunkLayers& c : chunks) {
    for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l) {
      const double params = lp.layer[static_cast<size_t>(l)];
      const double ag = cc.collective(rank, Dim::kDp, CollectiveKind::kAllGather, params * pl.param_element);
      const double rs = cc.collective(rank, Dim::kDp, CollectiveKind::kReduceScatter, params * pl.grad_element);
      const BlockPassTimes& ffn = is_moe_layer(run.model, l) ? bt.moe : bt.mlp;
      const double fwd = bt.attention.forward + ffn.forward + waits;
      // A recomputed layer re-runs its forward inside its backward pass (recompute_layers: approximately
      // all layers when set, as the window only widens).
      const double redo = s.recompute == Recompute::kFull ? bt.attention.forward + ffn.forward
                          : s.recompute == Recompute::kSelective ? bt.attention_core : 0;
      const double bwd = bt.attention.backward_input + bt.attention.weight_grad + ffn.backward_input + ffn.weight_grad +
                         redo + waits;
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

namespace {

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
                                 double element, double weight_element) {
  std::vector<Bytes> buckets;
  for (const ChunkLayers& c : chunks) {
    double params = c.has_embedding ? lp.embedding : 0;
    const int end = c.first_layer + c.layer_count;
    for (int l = c.first_layer; l < end; ++l) {
      params += lp.layer[static_cast<size_t>(l)] + (l + 1 == end && c.has_output ? lp.output : 0);
      if (params * weight_element < run.strategy.grad_bucket_size && l + 1 < end) continue;
      buckets.push_back(params * element);
      params = 0;
    }
  }
  return buckets;
}

}  // namespace

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
  const std::vector<Bytes> gathers = s.overlap.zero_param_gather ? param_buckets(run, chunks, lp, pl.param_element, pl.weight_element)
                                                                 : std::vector<Bytes>{params * pl.param_element};
  for (Bytes b : gathers) out.param_gather += cc.collective(rank, Dim::kDp, CollectiveKind::kAllGather, b);
  out.param_first_bucket = cc.collective(rank, Dim::kDp, CollectiveKind::kAllGather, gathers.front());
}

}  // namespace trainsim
