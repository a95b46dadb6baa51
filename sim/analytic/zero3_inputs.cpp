// ZeRO-3 communication of one stage for the formulas' inputs (see zero3_inputs.hpp).
#include "sim/analytic/zero3_inputs.hpp"

#include <algorithm>

#include "sim/analytic/layer_recompute.hpp"
#include "sim/analytic/zero3_streams.hpp"
#include "sim/model/layer_ops.hpp"

namespace trainsim {

// ZeRO-3 (per micro-batch): the stage's compute and DP streams run in tandem over its schedule's
// order of passes (zero3_streams.hpp). Each layer's compute includes its recompute and an even
// share of the stage's exposed TP/CP/EP waits (the DP stream runs through them too). Must run after
// the TP/CP/EP inputs are filled.
void add_zero3_comm(const RunSpec& run, const CommCosts& cc, int rank, const Payloads& pl, const BlockTimes& bt,
                    const std::vector<ChunkLayers>& chunks, const LayerParams& lp, StageInputs& out) {
  const auto& s = run.strategy;
  if (s.zero_stage != 3 || s.dp * s.cp <= 1) return;
  int layers = 0;
  for (const ChunkLayers& c : chunks) layers += c.layer_count;
  const double waits = layers > 0 ? (out.tp_exposed + out.cp_exposed + out.ep_exposed) / (2.0 * layers) : 0;
  const bool split = s.schedule == "zb-h1";  // weight gradients in their own pass
  auto bwd = [split](const BlockPassTimes& b) { return b.backward_input + (split ? 0 : b.weight_grad); };
  std::vector<Zero3Chunk> stage;
  int position = 0;  // layer index inside the stage (recompute_layers counts these)
  for (const ChunkLayers& c : chunks) {
    Zero3Chunk z;
    if (c.has_embedding) z.forward_head = bt.embedding.forward, z.backward_tail = bwd(bt.embedding);
    if (c.has_output) z.forward_tail = bt.output.forward, z.backward_head = bwd(bt.output);
    for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l, ++position) {
      // Dense over dp x cp, the routed experts' over their expert data-parallel group (ep > 1), one
      // after the other on the DP stream as the graph issues them (chunk_tasks.cpp, zero3_collective).
      const GradSplit g = grad_split(s, lp.layer[static_cast<size_t>(l)], lp.expert[static_cast<size_t>(l)]);
      const BlockPassTimes& ffn = is_moe_layer(run.model, l) ? bt.moe : bt.mlp;
      const BlockPassTimes& attention = bt.attention_of(is_window_layer(run.model, l));
      const double redo = layer_recompute(run, bt, l, position).seconds;
      Zero3Layer layer;
      layer.gather = cc.collective(rank, Dim::kDpCp, CollectiveKind::kAllGather, g.dense * pl.param_element) +
                     cc.collective(rank, Dim::kEdp, CollectiveKind::kAllGather, g.expert * pl.param_element);
      layer.reduce = cc.collective(rank, Dim::kDpCp, CollectiveKind::kReduceScatter, g.dense * pl.grad_element) +
                     cc.collective(rank, Dim::kEdp, CollectiveKind::kReduceScatter, g.expert * pl.grad_element);
      const bool mtp = is_mtp_layer(run.model, l);  // its module's embedding, projection and head
      layer.forward = attention.forward + ffn.forward + waits + (mtp ? bt.mtp_forward() : 0);
      layer.backward = bwd(attention) + bwd(ffn) + redo + waits +
                       (mtp ? bt.mtp_backward_input() + (split ? 0 : bt.mtp_weight_grad()) : 0);
      if (split) layer.weight = attention.weight_grad + ffn.weight_grad + (mtp ? bt.mtp_weight_grad() : 0);
      z.layers.push_back(layer);
    }
    stage.push_back(z);
  }
  const PassOrder order = s.schedule == "gpipe" ? PassOrder::kAllForwardsFirst
                          : split                ? PassOrder::kSplitWeightGrad
                                                 : PassOrder::kAlternating;
  const Zero3Streams z = zero3_streams(stage, s.overlap.zero_param_gather, order);
  out.zero3_exposed = z.exposed;
  out.zero3_after_wait = z.after_wait;
  out.zero3_hidden = std::max(0.0, z.busy - z.exposed);
}

}  // namespace trainsim
