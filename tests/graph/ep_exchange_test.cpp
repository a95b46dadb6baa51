// Where the EP exchange of the dispatch's gradient sits in a backward pass: after the experts'
// weight gradients when the backward runs whole (one autograd node computes a grouped GEMM's input
// and weight gradients), after their input gradients only when a zero-bubble schedule moves the
// weight gradients to a later W pass or combined 1F1B (overlap.ep_comm) runs them beside it; and
// the formulas hide it behind nothing in the first case.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/analytic/iteration_inputs.hpp"
#include "sim/graph/builder.hpp"
#include "tests/support/graph_edges.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

namespace {

// One MoE layer of 4 experts (top 2) over ep 2 = dp 2, or, for ZB-H1, over pp 2 x dp 2 (ep 2).
RunSpec moe_run(const std::string& schedule) {
  ModelSpec m = test::gpt_model(schedule == "zb-h1" ? 2 : 1, 256, 4, 1000);
  m.moe.experts = 4;
  m.moe.top_k = 2;
  m.moe.expert_ffn_hidden = 4096;
  const int pp = schedule == "zb-h1" ? 2 : 1;
  RunSpec run = test::gpt_run(m, 1, pp, 2, 512, 8, 1);
  run.strategy.ep = 2;
  run.strategy.schedule = schedule;
  return run;
}

// The labels of the tasks the first backward "ep.combine" of micro-batch 0 depends on.
std::vector<std::string> before_backward_combine(const StageGraph& g) {
  for (size_t id = 0; id < g.size(); ++id) {
    const Task& t = g.task(static_cast<TaskId>(id));
    if (t.role == TaskRole::kBackward && t.microbatch == 0 && g.label_text(t.label) == "ep.combine")
      return test::predecessor_labels(g, static_cast<TaskId>(id));
  }
  return {};
}

}  // namespace

TEST_CASE("a whole backward issues the dispatch's gradient exchange after the experts' weight gradients",
          "[graph][moe]") {
  const StageGraph g = build_stage_graph(moe_run("1f1b"), 0);
  const std::vector<std::string> before = before_backward_combine(g);
  INFO(before.size());
  REQUIRE(before.size() == 1);
  // The last kernel of the expert block's backward: fc1's weight gradient (or the add of it into
  // the gradient buffer), not fc1's input gradient.
  CHECK(before[0].rfind("moe_expert_fc1.", 0) == 0);
  CHECK(before[0] != "moe_expert_fc1.dgrad");
}

TEST_CASE("a zero-bubble backward issues it after the experts' input gradients (W runs later)", "[graph][moe]") {
  const StageGraph g = build_stage_graph(moe_run("zb-h1"), 0);
  CHECK(before_backward_combine(g) == std::vector<std::string>{"moe_expert_fc1.dgrad"});
}

TEST_CASE("combined 1F1B issues it after the experts' input gradients, beside their weight gradients",
          "[graph][moe][ep_overlap]") {
  RunSpec run = moe_run("1f1b");
  run.strategy.overlap.ep_comm = true;  // micro-batch 0's backward runs merged with micro-batch 1's forward
  const StageGraph g = build_stage_graph(run, 0);
  CHECK(before_backward_combine(g) == std::vector<std::string>{"moe_expert_fc1.dgrad"});
}

TEST_CASE("the formulas hide no EP exchange of a plain backward behind weight gradients", "[analytic][moe]") {
  const IterationInputs in = extract_iteration_inputs(moe_run("1f1b"));
  REQUIRE(in.stages.size() == 1);
  CHECK(in.stages[0].ep_exposed > 0);
  CHECK(in.stages[0].ep_hidden == 0.0);
}
