// Bubble of each schedule from the event evaluation, against the published closed forms.
#include <catch2/catch.hpp>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/graph/schedule.hpp"
#include "sim/graph/schedule_analysis.hpp"

using namespace trainsim;

namespace {

// Each stage's idle time divided by the ideal time m(F+B); the tests below need all stages equal.
double bubble_fraction(const ScheduleTiming& t, double ideal) {
  for (double idle : t.idle) CHECK(idle == Approx(t.idle.front()).margin(1e-9));
  return t.idle.front() / ideal;
}

struct Pm { int p, m; };

}  // namespace

// F = 1, B = 2 per micro-batch per stage. Both schedules finish at (m + p - 1)(F + B): the first
// micro-batch needs p-1 forward hops to reach the last stage and the last one p-1 backward hops to
// return, so each stage idles (p-1)(F+B) = 3(p-1) and the bubble fraction is 3(p-1)/(3m) = (p-1)/m
// (Narayanan et al. SC'21 §2.2.1; Huang et al. 2019). m < p included.
TEST_CASE("GPipe and 1F1B idle (p-1)(F+B) per stage: bubble fraction (p-1)/m", "[schedule]") {
  const StepDurations unit{1.0, 2.0, 0.0};  // F 1, B 2 (no separate W)
  for (const char* name : {"gpipe", "1f1b"}) {
    for (const Pm c : {Pm{2, 1}, Pm{2, 5}, Pm{4, 2}, Pm{4, 4}, Pm{4, 8}, Pm{3, 7}, Pm{8, 16}}) {
      INFO(name << " p " << c.p << " m " << c.m);
      const ScheduleTiming t = evaluate_schedule(find_schedule(name), {c.p, c.m, 1}, unit);
      CHECK(t.makespan == Approx(3.0 * (c.m + c.p - 1)));
      CHECK(bubble_fraction(t, 3.0 * c.m) == Approx(double(c.p - 1) / c.m));
    }
  }
}

// v chunks per stage, each costing F/v and B/v: the warm-up and drain hops now cost (F+B)/v each, so
// each stage idles (p-1)(F+B)/v and the fraction is (p-1)/(v m) (Narayanan et al. SC'21 §2.2.2).
// E.g. p 4, m 8, v 2: idle 3*3/2 = 4.5 of an ideal 24 -> 3/16.
TEST_CASE("interleaved 1F1B divides the bubble by v: fraction (p-1)/(v m)", "[schedule]") {
  struct Pmv { int p, m, v; };
  for (const Pmv c : {Pmv{2, 4, 2}, Pmv{4, 8, 2}, Pmv{4, 4, 4}, Pmv{4, 12, 3}, Pmv{8, 16, 2}, Pmv{1, 3, 2}}) {
    INFO("p " << c.p << " m " << c.m << " v " << c.v);
    const StepDurations chunk{1.0 / c.v, 2.0 / c.v, 0.0};
    const ScheduleTiming t = evaluate_schedule(find_schedule("interleaved"), {c.p, c.m, c.v}, chunk);
    CHECK(t.makespan == Approx(3.0 * c.m + 3.0 * (c.p - 1) / c.v));
    CHECK(bubble_fraction(t, 3.0 * c.m) == Approx(double(c.p - 1) / (c.v * c.m)).margin(1e-12));
  }
}

// F = B = W = 1 (Qi et al. 2024 §2 assume equal costs). Table 2: 1F1B, whose backward is B+W = 2,
// idles (p-1)(F+B+W) = 3(p-1); ZB-H1 idles (p-1)(F+B-W) = p-1, a third. Every stage does 3m work,
// so ZB-H1 finishes at 3m + p - 1 (needs m >= p, so that the steady state reaches every stage).
TEST_CASE("ZB-H1 cuts 1F1B's bubble from (p-1)(F+B+W) to (p-1)(F+B-W)", "[schedule]") {
  const StepDurations unit{1.0, 1.0, 1.0};
  for (const Pm c : {Pm{2, 2}, Pm{2, 5}, Pm{4, 4}, Pm{4, 8}, Pm{5, 7}, Pm{8, 24}}) {
    INFO("p " << c.p << " m " << c.m);
    const ScheduleTiming zb = evaluate_schedule(find_schedule("zb-h1"), {c.p, c.m, 1}, unit);
    const ScheduleTiming base = evaluate_schedule(find_schedule("1f1b"), {c.p, c.m, 1}, unit);
    for (int s = 0; s < c.p; ++s) {
      CHECK(zb.idle[s] == Approx(c.p - 1.0));
      CHECK(base.idle[s] == Approx(3.0 * (c.p - 1)));
    }
    CHECK(zb.makespan == Approx(3.0 * c.m + c.p - 1));
  }
}

// One micro-batch cannot overlap anything: p forwards, p input-gradient passes, then the last W on
// stage 0: 2p + 1. Every stage works 3 units, so it idles 2p - 2 = (p-1)(F+B), not (p-1)(F+B-W).
TEST_CASE("ZB-H1 with one micro-batch is bound by the forward and backward chains", "[schedule]") {
  for (int p : {2, 4, 8}) {
    const ScheduleTiming t = evaluate_schedule(find_schedule("zb-h1"), {p, 1, 1}, {1.0, 1.0, 1.0});
    CHECK(t.makespan == Approx(2.0 * p + 1));
    CHECK(t.idle.front() == Approx(2.0 * (p - 1)));
  }
}

// p 2, m 1, F 1, B 2, latency 0.5 per hop: F on stage 0 [0, 1], on stage 1 [1.5, 2.5], B on stage 1
// [2.5, 4.5], B on stage 0 [5, 7]. Makespan 7; stage 0 starts its B at 5.
TEST_CASE("each hop between stages adds the p2p latency", "[schedule]") {
  const ScheduleTiming t = evaluate_schedule(find_schedule("1f1b"), {2, 1, 1}, {1.0, 2.0, 0.0}, 0.5);
  CHECK(t.makespan == Approx(7.0));
  REQUIRE(t.start[0].size() == 2u);
  CHECK(t.start[0][1] == Approx(5.0));
  CHECK(t.start[1][0] == Approx(1.5));
  CHECK(t.busy[0] == Approx(3.0));
  CHECK(t.idle[0] == Approx(4.0));
}

// Stage 1 runs B1 before B0, but its F1 needs stage 0's F1, which waits behind stage 0's B0, which
// needs stage 1's B0: a cycle.
TEST_CASE("a schedule whose stages wait on each other in a cycle is reported as a deadlock", "[schedule]") {
  using S = ScheduleStep;
  const std::vector<std::vector<S>> steps = {
      {S{Phase::kForward, 0, 0}, S{Phase::kBackward, 0, 0}, S{Phase::kForward, 1, 0}, S{Phase::kBackward, 1, 0}},
      {S{Phase::kForward, 0, 0}, S{Phase::kForward, 1, 0}, S{Phase::kBackward, 1, 0}, S{Phase::kBackward, 0, 0}}};
  CHECK_THROWS_WITH(evaluate_steps(steps, {2, 2, 1}, {1.0, 2.0, 0.0}), Catch::Contains("deadlock"));
  const std::vector<std::vector<S>> incomplete = {{S{Phase::kForward, 0, 0}}};
  CHECK_THROWS_AS(evaluate_steps(incomplete, {1, 1, 1}, {1.0, 2.0, 0.0}), StrategyError);
}
