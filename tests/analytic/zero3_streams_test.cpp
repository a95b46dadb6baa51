// ZeRO-3's compute and DP streams in tandem (sim/analytic/zero3_streams), on a two-layer chunk whose
// steady state is worked by hand: gather 1, reduce-scatter 2, forward 3, backward 4 per layer.
#include <catch2/catch.hpp>

#include "sim/analytic/zero3_streams.hpp"

using namespace trainsim;

namespace {
std::vector<Zero3Chunk> two_layers() {
  Zero3Chunk c;
  c.layers = {{1, 2, 3, 4, 0}, {1, 2, 3, 4, 0}};
  return {c};
}
}  // namespace

// With prefetch, F then B: a forward's first gather queues behind the previous backward's last
// reduce-scatter (issued as that backward ended: waits 2 + 1 = 3); the second gather runs under the
// first layer (1 < 3). The backward's first gather waits 1; the next one runs under it. 4 per
// micro-batch; the stream moves 2 x (1 + 1) + 2 x 2 = 8.
TEST_CASE("ZeRO-3 with prefetch: the first gather of each pass waits, the queue's reduce-scatter with it",
          "[analytic][zero3]") {
  const Zero3Streams z = zero3_streams(two_layers(), true, PassOrder::kAlternating);
  CHECK(z.exposed == Approx(4));
  CHECK(z.busy == Approx(8));
}

// GPipe: forwards back to back wait only for their first gather (1); backwards back to back wait
// for the previous backward's last reduce-scatter and their first gather (2 + 1 = 3): 4 as well.
TEST_CASE("ZeRO-3 under GPipe: forwards wait for one gather, backwards also for the last reduce-scatter",
          "[analytic][zero3]") {
  CHECK(zero3_streams(two_layers(), true, PassOrder::kAllForwardsFirst).exposed == Approx(4));
}

// Without prefetch every gather is issued when the compute reaches its layer: forward 3 (behind the
// reduce-scatter) + 1, backward 1 + 3 (behind the first layer's reduce-scatter): 8, all of the
// stream's time.
TEST_CASE("ZeRO-3 without prefetch waits for every gather", "[analytic][zero3]") {
  CHECK(zero3_streams(two_layers(), false, PassOrder::kAlternating).exposed == Approx(8));
}

// ZB-H1: the backward (input gradients, 4) has no reduce-scatter; the W pass (1 per layer) issues
// them. F waits for both W reduce-scatters still queued: the W pass ends 1 after the first one is
// issued, which then has 2 - 1 = 1 left, plus the second (2), plus the gather (1): 4; the second
// gather runs under the first layer. B waits 1. Per micro-batch 5.
TEST_CASE("ZeRO-3 under ZB-H1: reduce-scatters follow the weight-gradient pass", "[analytic][zero3]") {
  std::vector<Zero3Chunk> c = two_layers();
  for (Zero3Layer& l : c[0].layers) l.weight = 1;
  CHECK(zero3_streams(c, true, PassOrder::kSplitWeightGrad).exposed == Approx(5));
}

// A pass that starts after the stage waited for its input: its first gather and the prefetch
// queued with it (both issued once the previous compute ended) are done. Three layers, gather 3,
// reduce-scatter 2, forward 3, backward 4. Forward: layer 2's gather is queued when layer 1
// starts (t 3) and ends at 6, when layer 1 ends: no wait. Backward (layers 2, 1, 0): layer 2's
// reduce-scatter runs 4-6, layer 0's gather is queued behind it as layer 1 starts (6-9); layer 1
// ends at 8: layer 0 waits 1.
TEST_CASE("after a wait for its input a pass waits only for gathers queued inside it", "[analytic][zero3]") {
  Zero3Chunk c;
  c.layers.assign(3, Zero3Layer{3, 2, 3, 4, 0});
  CHECK(zero3_streams({c}, true, PassOrder::kAlternating).after_wait == Approx(1));
}
