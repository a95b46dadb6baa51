// The compute and DP streams of a ZeRO-3 stage in tandem (see zero3_streams.hpp).
#include "sim/analytic/zero3_streams.hpp"

#include <algorithm>

namespace trainsim {
namespace {

// The two streams: when each is free, and how long the compute has waited so far.
struct Streams {
  double compute = 0, dp = 0, waited = 0;
  // Queues a DP collective issued once the compute so far has ended; returns when it ends.
  double queue(double seconds) {
    dp = std::max(dp, compute) + seconds;
    return dp;
  }
  // Runs `seconds` of compute once `ready` has passed.
  void run(double seconds, double ready) {
    waited += std::max(0.0, ready - compute);
    compute = std::max(compute, ready) + seconds;
  }
};

// The gather for layer i of a pass walking `order` (layer indices): issued now unless prefetched,
// and the next layer's prefetch queued behind it. Returns when layer i's parameters are there.
// `after_wait`: the pass starts after the stage waited for its input; what was issued before the
// wait (the first gather and its prefetch, both queued once the previous compute ended) is done.
double gather(Streams& s, const std::vector<Zero3Layer>& layers, const std::vector<size_t>& order, size_t i,
              bool prefetch, double& prefetched, bool after_wait) {
  if (after_wait && i == 0) {
    prefetched = s.compute;
    return s.compute;
  }
  const double ready = prefetch && i > 0 ? prefetched : s.queue(layers[order[i]].gather);
  if (prefetch && i + 1 < order.size()) prefetched = s.queue(layers[order[i + 1]].gather);
  return ready;
}

void forward_pass(Streams& s, const Zero3Chunk& c, bool prefetch, bool after_wait = false) {
  s.run(c.forward_head, 0);
  std::vector<size_t> order(c.layers.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  double prefetched = 0;
  for (size_t i = 0; i < order.size(); ++i)
    s.run(c.layers[order[i]].forward, gather(s, c.layers, order, i, prefetch, prefetched, after_wait));
  s.run(c.forward_tail, 0);
}

// The backward pass; with `split` the reduce-scatters wait for the weight-gradient pass.
void backward_pass(Streams& s, const Zero3Chunk& c, bool prefetch, bool split, bool after_wait = false) {
  s.run(c.backward_head, 0);
  std::vector<size_t> order(c.layers.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = order.size() - 1 - i;
  double prefetched = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    s.run(c.layers[order[i]].backward, gather(s, c.layers, order, i, prefetch, prefetched, after_wait));
    if (!split) s.queue(c.layers[order[i]].reduce);  // issued once the layer's backward is done
  }
  s.run(c.backward_tail, 0);
}

// ZB-H1's weight-gradient pass: each layer's W, then its reduce-scatter.
void weight_pass(Streams& s, const Zero3Chunk& c) {
  for (size_t i = c.layers.size(); i-- > 0;) {
    s.run(c.layers[i].weight, 0);
    s.queue(c.layers[i].reduce);
  }
}

// One micro-batch of every chunk: forwards in chunk order, backwards in reverse.
void cycle(Streams& s, const std::vector<Zero3Chunk>& chunks, bool prefetch, bool forwards, bool backwards,
           bool split) {
  if (forwards)
    for (const Zero3Chunk& c : chunks) forward_pass(s, c, prefetch);
  if (!backwards) return;
  for (auto c = chunks.rbegin(); c != chunks.rend(); ++c) backward_pass(s, *c, prefetch, split);
  if (split)
    for (auto c = chunks.rbegin(); c != chunks.rend(); ++c) weight_pass(s, *c);
}

constexpr int kWarmCycles = 3;  // cycles run before the one measured (the queue settles in one or two)

}  // namespace

Zero3Streams zero3_streams(const std::vector<Zero3Chunk>& chunks, bool prefetch, PassOrder order) {
  Zero3Streams out;
  for (const Zero3Chunk& c : chunks)
    for (const Zero3Layer& l : c.layers) out.busy += 2 * l.gather + l.reduce;
  if (out.busy <= 0) return out;
  const bool split = order == PassOrder::kSplitWeightGrad;
  for (const Zero3Chunk& c : chunks) {  // each pass on its own, after a wait for its input
    Streams f, b;
    forward_pass(f, c, prefetch, true);
    backward_pass(b, c, prefetch, split, true);
    out.after_wait += f.waited + b.waited;
  }
  Streams s;
  if (order == PassOrder::kAllForwardsFirst) {
    // Steady forwards (no reduce-scatter in the queue), then steady backwards.
    for (int k = 0; k < kWarmCycles; ++k) cycle(s, chunks, prefetch, true, false, false);
    double before = s.waited;
    cycle(s, chunks, prefetch, true, false, false);
    out.exposed = s.waited - before;
    for (int k = 0; k < kWarmCycles; ++k) cycle(s, chunks, prefetch, false, true, false);
    before = s.waited;
    cycle(s, chunks, prefetch, false, true, false);
    out.exposed += s.waited - before;
    return out;
  }
  for (int k = 0; k < kWarmCycles; ++k) cycle(s, chunks, prefetch, true, true, split);
  const double before = s.waited;
  cycle(s, chunks, prefetch, true, true, split);
  out.exposed = s.waited - before;
  return out;
}

}  // namespace trainsim
