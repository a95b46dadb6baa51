// ZeRO-3 on one pipeline stage as the graph builder orders it (sim/graph/chunk_tasks.cpp): before
// each layer's forward and again before its backward the layer's parameters are all-gathered on the
// DP stream, and after its backward its gradients are reduce-scattered there. With prefetch
// (overlap.zero_param_gather) the gather of the next layer is queued when a layer starts, so it
// runs behind the current one; without, each gather is issued when the compute reaches its layer.
// The DP stream runs its queue in order, so a pass's first gather also waits for the previous
// pass's last reduce-scatter.
// The compute stream and the DP stream are two servers in tandem: each step's start is a max of
// when its stream is free and when what it waits for ends (max-plus). Running a few passes of the
// stage's schedule order (forward and backward alternating for 1F1B and interleaved; forward,
// input-gradient and weight-gradient passes for ZB-H1, whose reduce-scatters follow the
// weight-gradient pass; all forwards then all backwards for GPipe) from idle streams reaches the
// steady state; the
// last cycle gives what the compute waits for per micro-batch, exactly for a stage the pipeline
// never starves. Extraction runs it once per stage; the formulas then use the two numbers.
#pragma once
#include <vector>

namespace trainsim {

// One layer of a chunk, seconds: its gather and reduce-scatter, and the compute of its forward and
// backward passes (including recompute and the waits on TP, CP and EP inside them); `weight` is
// the weight-gradient compute when a separate pass runs it (ZB-H1), else part of `backward`.
struct Zero3Layer {
  double gather = 0, reduce = 0, forward = 0, backward = 0, weight = 0;
};

// One model chunk of the stage: its layers in order, and the compute before the first layer and
// after the last in each pass (embedding and output blocks).
struct Zero3Chunk {
  std::vector<Zero3Layer> layers;
  double forward_head = 0, forward_tail = 0, backward_head = 0, backward_tail = 0;
};

struct Zero3Streams {
  double exposed = 0;     // seconds per micro-batch the compute waits for the DP stream (all chunks)
  double busy = 0;        // seconds per micro-batch of DP-stream traffic (gathers and reduce-scatters)
  // The same waits for passes that start after the stage waited for its input long enough to
  // finish what it had queued and the pass's first gathers (issued once its previous compute
  // ended, not when the input arrives): what ZeRO-3 adds to a pass in the pipeline's fill and drain.
  double after_wait = 0;
};

enum class PassOrder {
  kAlternating,        // F B F B ... (1F1B, interleaved)
  kSplitWeightGrad,    // F B W F B W ... (ZB-H1: reduce-scatters after each layer's W)
  kAllForwardsFirst,   // F F ... B B ... (GPipe)
};
[[nodiscard]] Zero3Streams zero3_streams(const std::vector<Zero3Chunk>& chunks, bool prefetch, PassOrder order);

}  // namespace trainsim
