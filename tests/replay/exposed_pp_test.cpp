// The compute stream's wait on a pipeline transfer, split into pipeline bubble (the sender had not
// begun: the work was not there) and exposed_pp (the bytes were moving), on hand-derived cases.
#include <catch2/catch.hpp>
#include <sstream>

#include "sim/core/child_process.hpp"
#include "sim/replay/engine.hpp"
#include "tests/support/tiny_run.hpp"

using namespace trainsim;
using namespace trainsim::test;

namespace {

constexpr double kPortRate = 100e9;  // 100 GB/s per port and direction
constexpr double kLatency = 2e-6;  // 2 us end to end
constexpr double kMessage = 1e9;   // one transfer: alpha + 1e9 / 100e9 = 10.002 ms

struct Waits {
  double bubble = 0, exposed_pp = 0, forward = 0;
};

// Replays `graph` and returns the waits of device `rank`.
Waits waits_of(const RunSpec& run, const RunGraph& graph, int rank) {
  const std::string out = call_in_child([&] {
    const Timeline t = replay(run, graph, Mesh(run.strategy), ReplayOptions{});
    std::ostringstream s;
    s.precision(17);
    for (const DeviceTimeline& d : t.devices)
      if (d.rank == rank)
        s << d.time[static_cast<size_t>(TimeCategory::kBubble)] << ' '
          << d.time[static_cast<size_t>(TimeCategory::kExposedPp)] << ' '
          << d.time[static_cast<size_t>(TimeCategory::kForward)];
    return s.str();
  });
  std::istringstream in(out);
  Waits w;
  in >> w.bubble >> w.exposed_pp >> w.forward;
  return w;
}

RunSpec two_stages() {
  RunSpec run = island_run(2, kPortRate, kLatency);
  run.strategy.pp = 2;
  return run;
}

// An empty graph of stages 0 and 1.
RunGraph two_stage_graph() {
  RunGraph g;
  g.stages.emplace_back(0);
  g.stages.emplace_back(1);
  return g;
}

}  // namespace

TEST_CASE("a wait on a late sender is bubble until the send begins, exposed_pp while its bytes move", "[replay]") {
  // Stage 0 computes 10 ms, then sends 1 GB. Stage 1's only kernel (1 ms) needs it: it waits from
  // t = 0 to 10 ms (nothing sent yet: bubble) and from 10 ms to 20.002 ms (the transfer: exposed).
  RunGraph g = two_stage_graph();
  StageGraph& s0 = g.stages[0];
  const TaskId f0 = s0.add(compute(s0, 10e-3));
  s0.add(p2p(s0, TaskKind::kSend, +1, kMessage), {f0});
  StageGraph& s1 = g.stages[1];
  const TaskId recv = s1.add(p2p(s1, TaskKind::kRecv, -1, kMessage));
  s1.add(compute(s1, 1e-3), {recv});
  const Waits w = waits_of(two_stages(), g, 1);
  CHECK(w.bubble == Approx(10e-3).epsilon(1e-9));
  CHECK(w.exposed_pp == Approx(kLatency + kMessage / kPortRate).epsilon(1e-9));
  CHECK(w.forward == Approx(1e-3).epsilon(1e-9));
}

TEST_CASE("a transfer that began before the receiver waited is exposed only for what is left", "[replay]") {
  // Stage 0 sends at t = 0; stage 1 computes 4 ms first, then needs the message (arrives at
  // 10.002 ms): it waits 6.002 ms, all of it while the bytes move, and no bubble.
  RunGraph g = two_stage_graph();
  StageGraph& s0 = g.stages[0];
  s0.add(p2p(s0, TaskKind::kSend, +1, kMessage));
  StageGraph& s1 = g.stages[1];
  const TaskId recv = s1.add(p2p(s1, TaskKind::kRecv, -1, kMessage));
  s1.add(compute(s1, 4e-3));
  s1.add(compute(s1, 1e-3), {recv});
  const Waits w = waits_of(two_stages(), g, 1);
  CHECK(w.bubble == Approx(0).margin(1e-12));
  CHECK(w.exposed_pp == Approx(kLatency + kMessage / kPortRate - 4e-3).epsilon(1e-9));
}

TEST_CASE("compute that waits for its own pipeline send (no pp_comm overlap) is exposed_pp", "[replay]") {
  // Stage 0: 1 ms, a 1 GB send, then 1 ms that the graph makes wait for the send (as the builder
  // does without overlap.pp_comm): 10.002 ms exposed, no bubble.
  RunGraph g = two_stage_graph();
  StageGraph& s0 = g.stages[0];
  const TaskId f0 = s0.add(compute(s0, 1e-3));
  const TaskId send = s0.add(p2p(s0, TaskKind::kSend, +1, kMessage), {f0});
  s0.add(compute(s0, 1e-3), {send});
  StageGraph& s1 = g.stages[1];
  s1.add(p2p(s1, TaskKind::kRecv, -1, kMessage));
  const Waits w = waits_of(two_stages(), g, 0);
  CHECK(w.exposed_pp == Approx(kLatency + kMessage / kPortRate).epsilon(1e-9));
  CHECK(w.bubble == Approx(0).margin(1e-12));
  CHECK(w.forward == Approx(2e-3).epsilon(1e-9));
}
