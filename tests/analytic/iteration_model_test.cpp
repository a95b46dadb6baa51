// The iteration formulas (sim/analytic/iteration_model) on hand-built inputs with round numbers:
// each term against a hand-derived value.
#include <catch2/catch.hpp>

#include "sim/analytic/iteration_model.hpp"

using namespace trainsim;

namespace {

IterationInputs pipeline(int p, int m, const char* schedule) {
  IterationInputs in;
  in.shape = {p, m, 1};
  in.schedule = &find_schedule_closed_form(schedule);
  in.stages.assign(static_cast<size_t>(p), StageInputs{});
  return in;
}

double term(const IterationEstimate& e, IterationTerm t) { return e.mean[static_cast<size_t>(t)]; }

}  // namespace

// One stage, m 4, F 1, Bi 2, W 1, optimizer 0.5: 4 x (1 + 2 + 1) + 0.5 = 16.5, no bubble.
TEST_CASE("one stage without communication is m(F+Bi+W) plus the optimizer", "[analytic][iteration]") {
  IterationInputs in = pipeline(1, 4, "1f1b");
  in.stages[0] = StageInputs{};
  in.stages[0].forward = 1, in.stages[0].backward_input = 2, in.stages[0].weight_grad = 1, in.stages[0].optimizer = 0.5;
  const IterationEstimate e = estimate_iteration(in, IterationTheta{});
  CHECK(e.iteration_time == Approx(16.5));
  CHECK(term(e, IterationTerm::kForward) == Approx(4));
  CHECK(term(e, IterationTerm::kBackward) == Approx(12));
  CHECK(term(e, IterationTerm::kOptimizer) == Approx(0.5));
  CHECK(term(e, IterationTerm::kBubble) == Approx(0).margin(1e-12));
}

// p 2, m 4, each stage F 1, Bi 1 (W 0): pipeline = m max t + (p-1)(F+B) = 8 + 2 = 10. Stage 1
// ends one backward (1) earlier: 9, so T = 10 and each stage's bubble+idle = 10 - 8 = 2, the
// (p-1)/m = 1/4 bubble of 1F1B (Narayanan et al. SC'21).
TEST_CASE("1F1B bubble: (p-1)/m of the ideal time", "[analytic][iteration]") {
  IterationInputs in = pipeline(2, 4, "1f1b");
  for (auto& s : in.stages) s.forward = 1, s.backward_input = 1;
  const IterationEstimate e = estimate_iteration(in, IterationTheta{});
  CHECK(e.iteration_time == Approx(10));
  CHECK(term(e, IterationTerm::kBubble) == Approx(2));
  CHECK(term(e, IterationTerm::kBubble) / (4 * 2) == Approx(1.0 / 4));
}

// ZB-H1, p 2, m 4, F = Bi = W = 1: bubble (p-1)(F+Bi-W) = 1 (Qi et al. 2024 Table 2); busy 12.
TEST_CASE("ZB-H1 bubble: (p-1)(F+Bi-W)", "[analytic][iteration]") {
  IterationInputs in = pipeline(2, 4, "zb-h1");
  for (auto& s : in.stages) s.forward = 1, s.backward_input = 1, s.weight_grad = 1;
  CHECK(estimate_iteration(in, IterationTheta{}).iteration_time == Approx(13));
}

// Interleaved, p 2, v 2, m 4, each stage F 1 and Bi 1 per micro-batch (0.5 each per chunk), a hop
// of 0.01 s, no interference. Asynchronous sends: m max t + (p-1)(F+B) per chunk + 2(pv-1) hops =
// 8 + 1 + 6 x 0.01 = 9.06. Blocking sends wait in every pass instead: each stage sends 2v - 1 = 3
// times per micro-batch, t = 2.03, and the fill and drain run through the other stage's passes with
// their waits: 4 x 2.03 + (0.5 + 0.5 + 0.03 / 2) = 9.135, with no hops on top.
TEST_CASE("interleaved fill and drain wait for 2(pv-1) hops with asynchronous sends, none more with blocking ones",
          "[analytic][iteration]") {
  IterationInputs in = pipeline(2, 4, "interleaved");
  in.shape.virtual_stages = 2;
  in.comm_interference = 0;
  for (auto& s : in.stages) s.forward = 1, s.backward_input = 1, s.pp_hop = 0.01;
  in.overlap_pp = true;
  CHECK(estimate_iteration(in, IterationTheta{}).iteration_time == Approx(9.06));
  in.overlap_pp = false;
  CHECK(estimate_iteration(in, IterationTheta{}).iteration_time == Approx(9.135));
}

// One stage, m 2, F 1, Bi 1; DP reduction 5 in buckets, the first ready at the start of the last
// backward (5 left, the whole backward of 1 ahead), the last 1 ready at its end. With overlap:
// exposed max(5 - 1, 1 - 0) = 4; without overlap all 5.
TEST_CASE("DP reduction hides behind the last backward, except its last bucket", "[analytic][iteration]") {
  IterationInputs in = pipeline(1, 2, "1f1b");
  in.stages[0].forward = 1, in.stages[0].backward_input = 1, in.stages[0].dp_reduce = 5;
  in.stages[0].dp_reduce_points = {{5, 1}, {1, 0}};
  in.overlap_param_gather = false;
  CHECK(term(estimate_iteration(in, IterationTheta{}), IterationTerm::kDp) == Approx(4));
  in.overlap_dp = false;
  CHECK(term(estimate_iteration(in, IterationTheta{}), IterationTerm::kDp) == Approx(5));
  in.overlap_dp = true;
  in.stages[0].dp_reduce = 1.5;  // 1.5 - 1 = 0.5 < last bucket 1: the last bucket stays exposed
  in.stages[0].dp_reduce_points = {{1.5, 1}, {1, 0}};
  CHECK(term(estimate_iteration(in, IterationTheta{}), IterationTerm::kDp) == Approx(1));
}

// The same, but the first bucket is ready only halfway through the last backward (backward 2:
// F 1, Bi 2), with 5 s of reductions from it on: exposed max(5 - 0.5 x 2, 1) = 4, where a stream
// that could start with the backward would leave 5 - 2 = 3.
TEST_CASE("DP reduction starts when its first bucket is ready, not with the backward", "[analytic][iteration]") {
  IterationInputs in = pipeline(1, 1, "1f1b");
  in.stages[0].forward = 1, in.stages[0].backward_input = 2, in.stages[0].dp_reduce = 5;
  in.stages[0].dp_reduce_points = {{5, 0.5}, {1, 0}};
  in.overlap_param_gather = false;
  CHECK(term(estimate_iteration(in, IterationTheta{}), IterationTerm::kDp) == Approx(4));
}

// Prefetched gathers of 3 buckets of 1 s each; the first forward (F 4, Bi 4) reaches bucket 2's
// layers after 1/4 of it and bucket 3's after 3/4: it starts max(1, 2 - 1, 3 - 3) = 1 late.
// With F 1 instead: max(1, 2 - 0.25, 3 - 0.75) = 2.25.
TEST_CASE("the first forward waits for each layer's prefetched parameter bucket", "[analytic][iteration]") {
  IterationInputs in = pipeline(1, 1, "1f1b");
  in.overlap_dp = false;
  in.stages[0].forward = 4, in.stages[0].backward_input = 4, in.stages[0].param_gather = 3;
  in.stages[0].param_gather_points = {{1, 0}, {2, 0.25}, {3, 0.75}};
  CHECK(term(estimate_iteration(in, IterationTheta{}), IterationTerm::kDp) == Approx(1));
  in.stages[0].forward = 1;
  CHECK(term(estimate_iteration(in, IterationTheta{}), IterationTerm::kDp) == Approx(2.25));
}

// One stage, m 3, F 1, Bi 1, exposed TP 0.5 and EP 0.25 per micro-batch, theta tp_scale 2:
// T = 3 x (2 + 2 x 0.5 + 0.25) = 9.75; TP term 3, EP term 0.75.
TEST_CASE("exposed communication adds per micro-batch, scaled by its theta", "[analytic][iteration]") {
  IterationInputs in = pipeline(1, 3, "1f1b");
  in.stages[0].forward = 1, in.stages[0].backward_input = 1, in.stages[0].tp_exposed = 0.5, in.stages[0].ep_exposed = 0.25;
  IterationTheta th;
  th.tp_scale = 2;
  const IterationEstimate e = estimate_iteration(in, th);
  CHECK(e.iteration_time == Approx(9.75));
  CHECK(term(e, IterationTerm::kTp) == Approx(3));
  CHECK(term(e, IterationTerm::kEp) == Approx(0.75));
}

// Interference: kappa 0.1, TP beside the backward 2 per micro-batch: backward +0.2 per micro-batch.
// m 2, F 1, Bi 1: T = 2 x (2 + 0.2) = 4.4, the backward term 2 x 1.2 = 2.4.
TEST_CASE("communication beside compute slows it by comm_interference times its duration", "[analytic][iteration]") {
  IterationInputs in = pipeline(1, 2, "1f1b");
  in.comm_interference = 0.1;
  in.stages[0].forward = 1, in.stages[0].backward_input = 1, in.stages[0].tp_hidden = 2;
  const IterationEstimate e = estimate_iteration(in, IterationTheta{});
  CHECK(e.iteration_time == Approx(4.4));
  CHECK(term(e, IterationTerm::kBackward) == Approx(2.4));
  CHECK(term(e, IterationTerm::kForward) == Approx(2));
}

// Link sharing: EP exposed 0.5 per micro-batch plus 0.25 lost to DP traffic on node links, 0.1 on
// network links; theta contention_node 2, contention_network 1: EP per micro-batch 0.5 + 0.5 + 0.1
// = 1.1. m 2, F 1, Bi 1: T = 2 x (2 + 1.1) = 6.2, EP term 2.2. Once in the last backward, 0.15 more
// TP on node links (x 2): T 6.5, TP term 0.3.
TEST_CASE("time lost to other dimensions on shared links adds to the exposed term, per tier theta",
          "[analytic][iteration]") {
  IterationInputs in = pipeline(1, 2, "1f1b");
  in.stages[0].forward = 1, in.stages[0].backward_input = 1, in.stages[0].ep_exposed = 0.5;
  in.stages[0].shared[1].steady.ep = {0.25, 0.1};  // [1]: the pipeline switch of the inputs is on
  IterationTheta th;
  th.contention_node = 2;
  IterationEstimate e = estimate_iteration(in, th);
  CHECK(e.iteration_time == Approx(6.2));
  CHECK(term(e, IterationTerm::kEp) == Approx(2.2));
  in.stages[0].shared[1].once.tp = {0.15, 0};
  e = estimate_iteration(in, th);
  CHECK(e.iteration_time == Approx(6.5));
  CHECK(term(e, IterationTerm::kTp) == Approx(0.3));
}

// DP reduction 3 in buckets, the first ready at the start of the last backward (B 2) and the last
// (1) at its end: exposed max(3 - 2, 1) = 1. Slowed by half beside other traffic (rho 0.5 on node
// links), the backward hides only 2 / 1.5: max(3 - 4/3, 1) = 5/3.
TEST_CASE("DP reduction slowed by other traffic in the last backward has less of it to hide in",
          "[analytic][iteration]") {
  IterationInputs in = pipeline(1, 1, "1f1b");
  in.overlap_param_gather = false;
  in.stages[0].forward = 1, in.stages[0].backward_input = 2, in.stages[0].dp_reduce = 3;
  in.stages[0].dp_reduce_points = {{3, 1}, {1, 0}};
  CHECK(term(estimate_iteration(in, IterationTheta{}), IterationTerm::kDp) == Approx(1));
  in.stages[0].shared[1].reduce_slowdown = {0.5, 0};
  CHECK(term(estimate_iteration(in, IterationTheta{}), IterationTerm::kDp) == Approx(5.0 / 3));
}

// p 2, m 4, F = Bi = 1 (as the 1F1B bubble case: stage 0 ready at 10, stage 1 at 9), optimizers 0.5
// and 1.5. Untied: max(10 + 0.5, 9 + 1.5) = 10.5. Tied, an exchange of 0.25 between the ends: both
// optimizers begin at max(10, 9) + 0.25 = 10.25, so T = 10.25 + 1.5 = 11.75.
TEST_CASE("tied embeddings: both ends' optimizers wait for their exchange, which waits for the later end",
          "[analytic][iteration]") {
  IterationInputs in = pipeline(2, 4, "1f1b");
  for (auto& s : in.stages) s.forward = 1, s.backward_input = 1;
  in.stages[0].optimizer = 0.5, in.stages[1].optimizer = 1.5;
  CHECK(estimate_iteration(in, IterationTheta{}).iteration_time == Approx(10.5));
  for (auto& s : in.stages) s.tied_sync = 0.25;
  CHECK(estimate_iteration(in, IterationTheta{}).iteration_time == Approx(11.75));
}
