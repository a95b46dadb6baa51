// Closed-form alpha-beta collective times (sim/analytic/collective_time), each against a hand-derived
// case with alpha = 2 us, beta = 100 GB/s and round buffers.
#include <catch2/catch.hpp>

#include "sim/analytic/collective_time.hpp"

using namespace trainsim;

namespace {
const LinkCost kLink{2e-6, 100e9, false};
}  // namespace

// n 4, S 8 MB: 2(n-1) alpha = 6 x 2 us = 12 us; 2(n-1)/n S / beta = 1.5 x 8e6 / 1e11 = 120 us.
TEST_CASE("ring all-reduce takes 2(n-1)/n S/beta + 2(n-1) alpha", "[analytic][collective_time]") {
  const CollectiveCost c = collective_cost(CollectiveKind::kAllReduce, "ring", {4, 4}, 8e6, kLink, kLink);
  CHECK(c.steps == 6);
  CHECK(c.latency == Approx(12e-6));
  CHECK(c.transfer == Approx(120e-6));
  CHECK(c.total() == Approx(132e-6));
}

// n 4, S 8 MB: (n-1) alpha = 6 us; (n-1)/n S / beta = 60 us.
TEST_CASE("ring reduce-scatter and all-gather take (n-1)/n S/beta + (n-1) alpha", "[analytic][collective_time]") {
  for (CollectiveKind k : {CollectiveKind::kReduceScatter, CollectiveKind::kAllGather})
    CHECK(collective_cost(k, "ring", {4, 4}, 8e6, kLink, kLink).total() == Approx(66e-6));
}

// One member, or nothing to move: no time.
TEST_CASE("a collective of one member or of zero bytes takes no time", "[analytic][collective_time]") {
  CHECK(collective_cost(CollectiveKind::kAllReduce, "ring", {1, 1}, 8e6, kLink, kLink).total() == 0);
  CHECK(collective_cost(CollectiveKind::kAllReduce, "ring", {4, 4}, 0, kLink, kLink).total() == 0);
}

// All-to-all: one step; each member sends S/n to each of n-1 peers. Through one port: (n-1)/n S
// = 6 MB -> 60 us + 2 us. Over a full mesh each flow has its own link: S/n = 2 MB -> 20 us + 2 us.
TEST_CASE("direct all-to-all shares one port, or uses a link per peer on a full mesh", "[analytic][collective_time]") {
  CHECK(collective_cost(CollectiveKind::kAllToAll, "direct", {4, 4}, 8e6, kLink, kLink).total() == Approx(62e-6));
  const LinkCost mesh{2e-6, 100e9, true};
  CHECK(collective_cost(CollectiveKind::kAllToAll, "direct", {4, 4}, 8e6, mesh, mesh).total() == Approx(22e-6));
  // Direct all-reduce on a full mesh: 2(n-1) = 6 steps (12 us), 2S/n = 4 MB on each link (40 us).
  CHECK(collective_cost(CollectiveKind::kAllReduce, "direct", {4, 4}, 8e6, mesh, mesh).total() == Approx(52e-6));
}

// All-to-all over 2 nodes of 2 (n 4, g 2), S 8 MB: each member sends S/n = 2 MB to each peer;
// 2 peers across nodes share the NIC port (25 GB/s here): 4 MB -> 160 us; the one peer in the node
// its own mesh link (100 GB/s): 2 MB -> 20 us. The NIC bounds it: 2 us + 160 us (a port carrying
// all three flows would give 240 us).
TEST_CASE("direct all-to-all over several nodes is bound by the flows that cross the nodes' ports",
          "[analytic][collective_time]") {
  const LinkCost mesh{2e-6, 100e9, true}, nic{2e-6, 25e9, false};
  CHECK(collective_cost(CollectiveKind::kAllToAll, "direct", {4, 2}, 8e6, mesh, nic).total() == Approx(162e-6));
  // A slow node fabric (port of 10 GB/s) bounds it instead: 1 peer x 2 MB -> 200 us.
  const LinkCost slow{2e-6, 10e9, false};
  CHECK(collective_cost(CollectiveKind::kAllToAll, "direct", {4, 2}, 8e6, slow, nic).total() == Approx(202e-6));
}

// NVLS all-reduce of 4 MiB: k = 4 chunks, k + 1 = 5 steps (10 us); up and down streams of S each
// overlap: S / beta = 4194304 / 1e11 = 41.94304 us.
TEST_CASE("NVLS all-reduce moves the buffer once up and once down, in k+1 pipelined steps", "[analytic][collective_time]") {
  const CollectiveCost c = collective_cost(CollectiveKind::kAllReduce, "nvls", {8, 8}, 4.0 * 1024 * 1024, kLink, kLink);
  CHECK(c.steps == 5);
  CHECK(c.total() == Approx(10e-6 + 41.94304e-6));
}

// 16 members, 8 per node: intra ring all-reduce over 8 moves 2*7/8 S = 14 MB at 100 GB/s = 140 us;
// inter ring over 2 nodes of S/8 = 1 MB moves 2*1/2 MB = 1 MB at 10 GB/s = 100 us; bulk mode runs
// both at once: 140 us. Steps 14 + 2 = 16 at the larger alpha (5 us): 80 us.
TEST_CASE("hierarchical all-reduce: intra-node and inter-node rings, the slower bounds the transfer", "[analytic][collective_time]") {
  const LinkCost inter{5e-6, 10e9, false};
  const CollectiveCost c = collective_cost(CollectiveKind::kAllReduce, "hierarchical", {16, 8}, 8e6, kLink, inter);
  CHECK(c.steps == 16);
  CHECK(c.transfer == Approx(140e-6));
  CHECK(c.total() == Approx(220e-6));
}
