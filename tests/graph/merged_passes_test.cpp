// Combined 1F1B (strategy.overlap.ep_comm): a forward and a backward merged layer by layer so that
// each pass's EP all-to-alls run beside the other's kernels; the closed form of the time the
// compute stream still waits, worked by hand; which runs it applies to.
#include <catch2/catch.hpp>

#include <boost/graph/adjacency_list.hpp>
#include <sstream>

#include "sim/analytic/iteration_inputs.hpp"
#include "sim/analytic/iteration_model.hpp"
#include "sim/analytic/merged_exposure.hpp"
#include "sim/core/child_process.hpp"
#include "sim/graph/builder.hpp"
#include "sim/replay/fold_plan.hpp"
#include "sim/search/search.hpp"
#include "sim/strategy/ep_overlap.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

namespace {

// Two devices (ep 2 = dp 2), one MoE layer, 3 micro-batches: each all-to-all takes about as long as
// a segment (test::ep_pair_run).
RunSpec ep_run(bool overlap) {
  RunSpec run = test::ep_pair_run(1, 1, 6);
  run.strategy.overlap.ep_comm = overlap;
  return run;
}

bool depends(const StageGraph& g, TaskId from, TaskId to) { return boost::edge(from, to, g.dag()).second; }

}  // namespace

TEST_CASE("the merged pair's wait is worked out by hand from its segments", "[analytic][ep_overlap]") {
  // All-to-alls of 5 s. B's 3 s before its first; F's experts 4, B's experts 2, F's rest 1, B's
  // rest 6. F's dispatch runs 0-5, so F's experts wait 3-5; B's first (ready at 3) waits for the EP
  // stream until 5 and runs 5-10; F's experts 5-9, B's experts wait 9-10 and run 10-12; F's
  // combine (ready at 9) runs 10-15, so F's rest waits 12-15 and runs 15-16; B's second (ready at
  // 12) runs 15-20, B's rest waits 16-20 and runs 20-26. Waits: 2 + 1 + 3 + 4 = 10 s.
  MergedSegments s;
  s.b_before = 3;
  s.f_experts = 4;
  s.b_experts = 2;
  s.f_after = 1;
  s.b_after = 6;
  CHECK(merged_ep_exposed(s, 5) == 10.0);
  // 2 s of B's rest are weight gradients that wait for nothing: they run 16-18, the wait is 18-20.
  s.b_wgrad = 2;
  CHECK(merged_ep_exposed(s, 5) == 8.0);
  // Free all-to-alls hide nothing and cost nothing.
  CHECK(merged_ep_exposed(s, 0) == 0.0);
}

TEST_CASE("merged passes interleave at the all-to-alls and wait only for their own", "[graph][ep_overlap]") {
  const StageGraph g = build_stage_graph(ep_run(true), 0);
  // Micro-batch 1's forward is merged with micro-batch 0's backward (the first forward runs alone).
  int64_t dispatch = -1;
  for (size_t id = 0; id < g.size() && dispatch < 0; ++id) {
    const Task& t = g.task(static_cast<TaskId>(id));
    if (g.label_text(t.label) == "ep.dispatch" && t.role == TaskRole::kForward && t.microbatch == 1)
      dispatch = static_cast<int64_t>(id);
  }
  REQUIRE(dispatch >= 0);
  // The next kernel on the compute stream is the backward's, and it does not wait for the
  // dispatch; the forward's first expert GEMM after it does.
  const auto& compute = g.order(Stream::kCompute);
  size_t next = 0;
  while (compute[next] < static_cast<TaskId>(dispatch)) ++next;
  const Task& b = g.task(compute[next]);
  CHECK(b.role == TaskRole::kBackward);
  CHECK(b.microbatch == 0);
  CHECK_FALSE(depends(g, static_cast<TaskId>(dispatch), compute[next]));
  while (g.label_text(g.task(compute[next]).label) != "moe_expert_fc1.fwd") ++next;
  CHECK(g.task(compute[next]).microbatch == 1);
  CHECK(depends(g, static_cast<TaskId>(dispatch), compute[next]));
  // Without the overlap no backward kernel sits between a forward's dispatch and its experts.
  const StageGraph plain = build_stage_graph(ep_run(false), 0);
  CHECK(plain.size() == g.size());  // the same tasks, merged or not
}

double replayed(bool overlap) {
  const std::string out = call_in_child([overlap] {
    const RunSpec run = ep_run(overlap);
    std::ostringstream s;
    s.precision(17);
    s << replay_exact(run, build_run_graph(run), Mesh(run.strategy), ReplayOptions{}).iteration_time;
    return s.str();
  });
  return std::stod(out);
}

double formula(bool overlap) {
  return estimate_iteration(extract_iteration_inputs(ep_run(overlap)), IterationTheta{}).iteration_time;
}

TEST_CASE("the replay hides the merged all-to-alls and the formula follows it", "[graph][ep_overlap]") {
  const double plain = replayed(false), merged = replayed(true);
  CHECK(merged < plain);
  // The formulas stay within their held-out target (3%, issue 13) of the replay, merged or not.
  CHECK(formula(false) == Approx(plain).epsilon(0.03));
  CHECK(formula(true) == Approx(merged).epsilon(0.03));
  CHECK(formula(true) < formula(false));
  CHECK(merged_steps(ep_run(true), 0) == 2);  // 3 micro-batches: (B0, F1) and (B1, F2)
  CHECK(merged_steps(ep_run(false), 0) == 0);
}

TEST_CASE("EP overlap is refused where merged passes are not modelled", "[config][ep_overlap]") {
  RunSpec run = ep_run(true);
  CHECK(ep_overlap_obstacle(run).empty());
  run.strategy.pp = 2;
  CHECK_THAT(ep_overlap_obstacle(run), Catch::Contains("needs virtual stages"));
  run = ep_run(true);
  run.strategy.recompute = Recompute::kFull;
  CHECK_THAT(ep_overlap_obstacle(run), Catch::Contains("full recompute"));
  run = ep_run(true);
  run.strategy.ep = 1;
  CHECK_FALSE(merges_ep_passes(run));
  // A search keeps the base run's switch and names it in the strategy where it applies.
  CHECK_THAT(strategy_label(ep_run(true)), Catch::EndsWith(" ep-overlap"));
  CHECK_THAT(strategy_label(run), !Catch::Contains("ep-overlap"));
}
