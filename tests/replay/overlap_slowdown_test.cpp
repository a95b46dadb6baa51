// A collective pipelined with its GEMM (Task::pipelined) on an accelerator whose communication slows
// beside its GEMMs (accelerator.overlap_comm_slowdown = s): its bytes move at 1/s of the bandwidth,
// its latencies are unchanged, and a collective that is not pipelined keeps its time. Every
// expected time is worked out by hand, on the three ways the replay times a collective: flows
// (step mode), the full-mesh pair shortcut and the private-switch hold (bulk mode).
#include <catch2/catch.hpp>

#include "tests/support/replay_child.hpp"
#include "tests/support/tiny_run.hpp"

using namespace trainsim;
using namespace trainsim::test;

namespace {

constexpr double kMeshBeta = 100e9;  // 100 GB/s per link or port and direction
constexpr double kMeshAlpha = 2e-6;  // 2 us end to end
constexpr double kSlowdown = 1.5;

// One collective of `bytes` on a TP group of all `run`'s devices, pipelined or not.
RunGraph one_collective(CollectiveKind kind, double bytes, bool pipelined) {
  RunGraph g;
  g.stages.emplace_back(0);
  Task t = collective(g.stages[0], kind, Dim::kTp, bytes);
  t.pipelined = pipelined;
  g.stages[0].add(t);
  return g;
}

// 4 devices on a full mesh of 100 GB/s pair links (HCCS-like), tp 4, slowdown 1.5.
RunSpec mesh_run() {
  RunSpec run = island_run(4, 300e9, kMeshAlpha);
  run.platform.tiers[0].topology = Topology::kFullMesh;
  run.platform.tiers[0].link_bandwidth = kMeshBeta;
  run.platform.accelerator.overlap_comm_slowdown = kSlowdown;
  run.strategy.tp = 4;
  return run;
}

}  // namespace

TEST_CASE("a pipelined all-gather on a full mesh moves its bytes at bandwidth / slowdown, its latency unchanged",
          "[replay]") {
  // All-gather of S = 800 MB: each member sends its 200 MB piece to each of its 3 peers, one pair
  // link each. Bulk mode (the pair shortcut): all at once, 200 MB / 100 GB/s + 3 alpha = 2 ms + 6 us
  // alone; pipelined at s = 1.5, 200 MB / (100 GB/s / 1.5) + 3 alpha = 3 ms + 6 us. Step mode (flows):
  // 3 shifted steps of alpha + 200 MB at the bounded rate, 3 x (2 us + 3 ms) (alone 3 x (2 us + 2 ms)).
  const RunSpec run = mesh_run();
  const double piece = 200e6;
  const RunGraph pipelined = one_collective(CollectiveKind::kAllGather, 800e6, true);
  const RunGraph alone = one_collective(CollectiveKind::kAllGather, 800e6, false);
  CHECK(replayed_iteration(run, pipelined, CollectiveMode::kBulk) == Approx(piece * kSlowdown / kMeshBeta + 3 * kMeshAlpha).epsilon(1e-9));
  CHECK(replayed_iteration(run, alone, CollectiveMode::kBulk) == Approx(piece / kMeshBeta + 3 * kMeshAlpha).epsilon(1e-9));
  CHECK(replayed_iteration(run, pipelined, CollectiveMode::kStep) == Approx(3 * (kMeshAlpha + piece * kSlowdown / kMeshBeta)).epsilon(1e-9));
  CHECK(replayed_iteration(run, alone, CollectiveMode::kStep) == Approx(3 * (kMeshAlpha + piece / kMeshBeta)).epsilon(1e-9));
}

TEST_CASE("a pipelined in-switch all-reduce is slowed on its way up and down alike", "[replay]") {
  // 8 devices on one NVSwitch with in-network reduction, tp 8, S = 1.2 GB (the in-switch golden of
  // replay_golden_test.cpp), slowdown 1.5:
  //   bulk: one S up and one S down at once, alpha + 1.5 S / beta, plus 8 alpha: 1.8018e-2 s
  //         (the private-switch hold);
  //   step: 9 x (alpha + 1.5 x 1.5e8 / beta) = 2.0268e-2 s (flows through the switch's proxy, each
  //         bounded at the port's bandwidth / 1.5).
  const double S = 1.2e9;
  RunSpec run = island_run(8, kMeshBeta, kMeshAlpha);
  run.platform.tiers[0].in_network_reduction = true;
  run.platform.accelerator.overlap_comm_slowdown = kSlowdown;
  run.strategy.tp = 8;
  const RunGraph g = one_collective(CollectiveKind::kAllReduce, S, true);
  CHECK(replayed_iteration(run, g, CollectiveMode::kBulk) == Approx(kMeshAlpha + kSlowdown * S / kMeshBeta + 8 * kMeshAlpha).epsilon(1e-9));
  CHECK(replayed_iteration(run, g, CollectiveMode::kStep) ==
        Approx(9 * (kMeshAlpha + kSlowdown * S / 8 / kMeshBeta)).epsilon(1e-9));
}

TEST_CASE("a pipelined ring all-reduce's flows are each bounded at bandwidth / slowdown", "[replay]") {
  // 4 devices on a crossbar without in-network reduction, ring all-reduce of S = 800 MB, step mode:
  // 2(n-1) = 6 steps of alpha + (S/4) / (beta / 1.5) = 2 us + 3 ms: 18.012 ms (alone 12.012 ms).
  RunSpec run = island_run(4, kMeshBeta, kMeshAlpha);
  run.platform.accelerator.overlap_comm_slowdown = kSlowdown;
  run.strategy.tp = 4;
  run.collectives["tp"] = "ring";
  CHECK(replayed_iteration(run, one_collective(CollectiveKind::kAllReduce, 800e6, true), CollectiveMode::kStep) ==
        Approx(6 * (kMeshAlpha + 200e6 * kSlowdown / kMeshBeta)).epsilon(1e-9));
  CHECK(replayed_iteration(run, one_collective(CollectiveKind::kAllReduce, 800e6, false), CollectiveMode::kStep) ==
        Approx(6 * (kMeshAlpha + 200e6 / kMeshBeta)).epsilon(1e-9));
}
