// What recompute adds to one layer's backward, per micro-batch: the one rule the iteration
// formulas (pass_times, dp_inputs, iteration_inputs) share with the graph builder's
// sim/graph/chunk_tasks (layer_backward):
//   full       the first recompute_layers layers of a stage (0: all) re-run their whole forward,
//              attention and FFN blocks with their TP collectives;
//   selective  every layer re-runs the forward kernels its modules pick (sim/model/recompute_ops.hpp);
//              the mlp module re-runs a dense MLP block with its TP collectives.
#pragma once
#include "sim/analytic/pass_times.hpp"

namespace trainsim {

struct LayerRecompute {
  double seconds = 0;             // device time of the re-run kernels
  // Their launches as issued: those re-run before the FFN block's backward (full recompute: the whole
  // forward, the attention block's first) and those before the attention block's backward.
  IssueSegments ffn_issue, attention_issue;
  bool attention_again = false;   // the attention block's forward collectives run again
  bool ffn_again = false;         // the FFN (MLP or MoE) block's forward collectives run again
};

// `layer`: the model's layer index; `position`: its index inside its stage, chunk by chunk
// (recompute_layers counts these).
[[nodiscard]] LayerRecompute layer_recompute(const RunSpec& run, const BlockTimes& t, int layer, int position);

}  // namespace trainsim
