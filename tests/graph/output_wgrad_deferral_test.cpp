// strategy.defer_output_wgrad (Megatron-Core's defer_embedding_wgrad_compute): the output layer's
// weight gradients of the first N micro-batches leave their backward passes and run, one per
// micro-batch in order, after the last stage's last backward; the buffers they keep count as
// activations of that stage; runs without a pipeline flush to put them in are refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/analytic/device_memory.hpp"
#include "sim/graph/builder.hpp"
#include "tests/support/graph_edges.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;
using namespace trainsim::test;

namespace {

constexpr int kSeq = 512, kHidden = 256, kVocab = 1000, kMicrobatches = 4;

RunSpec two_stages(int deferred) {
  RunSpec run = gpt_run(gpt_model(2, kHidden, 4, kVocab), 1, 2, 1, kSeq, kMicrobatches, 1);
  run.strategy.defer_output_wgrad = deferred;
  return run;
}

// The micro-batch of each logits.wgrad task on the compute stream, in order, and where the first
// deferred one would have to be: the position after the last other backward task.
struct Placement {
  std::vector<int> wgrad_microbatches;
  std::vector<size_t> wgrad_positions;
  size_t after_last_backward = 0;
};

Placement placement(const StageGraph& g) {
  Placement p;
  const auto& order = g.order(Stream::kCompute);
  for (size_t i = 0; i < order.size(); ++i) {
    const Task& t = g.task(order[i]);
    const std::string label = g.label_text(t.label);
    if (label == "logits.wgrad") {
      p.wgrad_microbatches.push_back(t.microbatch);
      p.wgrad_positions.push_back(i);
    } else if (t.role == TaskRole::kBackward) {
      p.after_last_backward = i + 1;
    }
  }
  return p;
}

}  // namespace

TEST_CASE("deferred output weight gradients run after the last stage's last backward, first micro-batches first",
          "[graph][pipeline]") {
  const Placement plain = placement(build_stage_graph(two_stages(0), 1));
  const Placement deferred = placement(build_stage_graph(two_stages(2), 1));
  CHECK(plain.wgrad_microbatches == std::vector<int>{0, 1, 2, 3});
  REQUIRE(deferred.wgrad_microbatches == std::vector<int>{2, 3, 0, 1});
  CHECK(deferred.wgrad_positions[1] < deferred.after_last_backward);  // micro-batch 3's stays in its pass
  CHECK(deferred.wgrad_positions[2] == deferred.after_last_backward);
  CHECK(deferred.wgrad_positions[3] == deferred.after_last_backward + 1);
  // The first stage holds no output layer: its graph is untouched.
  CHECK(build_stage_graph(two_stages(2), 0).size() == build_stage_graph(two_stages(0), 0).size());
}

// Each deferred micro-batch keeps the logits GEMM's input (T x h) and its output gradient
// (T x V), 16-bit: 2 x 512 x (256 + 1000) x 2 bytes for two micro-batches.
TEST_CASE("deferred output weight gradients keep their inputs on the last stage", "[graph][memory]") {
  const DeviceMemory plain = stage_memory(two_stages(0))[1], deferred = stage_memory(two_stages(2))[1];
  CHECK(deferred.activations - plain.activations == Approx(2.0 * kSeq * (kHidden + kVocab) * 2));
  CHECK(stage_memory(two_stages(2))[0].activations == stage_memory(two_stages(0))[0].activations);
}

TEST_CASE("deferring output weight gradients without a flush to hide them is refused", "[config][pipeline]") {
  const std::string base = "check " + kDefault + " --set strategy.defer_output_wgrad=2 ";
  const CommandResult no_pipeline = run_trainsim(base + "--set strategy.pp=1 --set strategy.dp=8");
  CHECK(no_pipeline.exit_code == 2);
  CHECK(no_pipeline.err.find("strategy.defer_output_wgrad") != std::string::npos);
  CHECK(no_pipeline.err.find("pp > 1") != std::string::npos);
  const CommandResult zb = run_trainsim(base + "--set strategy.schedule=zb-h1");
  CHECK(zb.exit_code == 2);
  CHECK(zb.err.find("zb-h1") != std::string::npos);
  const CommandResult unfused = run_trainsim(base + "--set strategy.grad_accumulation_fusion=false");
  CHECK(unfused.exit_code == 2);
  CHECK(unfused.err.find("needs grad_accumulation_fusion") != std::string::npos);
}

// With data parallelism the output layer's gradient is reduced once complete: after the flush's
// last deferred GEMM, not after the last backward pass.
TEST_CASE("the output layer's gradient is reduced after the deferred weight gradients", "[graph][pipeline]") {
  RunSpec run = two_stages(2);
  run = gpt_run(run.model, 1, 2, 2, kSeq, 2 * kMicrobatches, 1);
  run.strategy.overlap.dp_grad_reduce = true;  // buckets reduced as their gradients complete
  run.strategy.defer_output_wgrad = 2;
  const StageGraph g = build_stage_graph(run, 1);
  const auto& dp = g.order(Stream::kDp);
  REQUIRE_FALSE(dp.empty());
  const std::vector<std::string> before = predecessor_labels(g, dp.front());
  CHECK(std::find(before.begin(), before.end(), "logits.wgrad") != before.end());
  const auto& compute = g.order(Stream::kCompute);
  const Placement p = placement(g);
  CHECK(g.task(compute[p.wgrad_positions.back()]).microbatch == 1);  // the flush's last GEMM
}
