// strategy.grad_accumulation_fusion in the stage graphs: the unfused run adds one HBM pass over
// every linear weight per micro-batch (formulas: the main-gradient add of Megatron's DDP hook).
#include <catch2/catch.hpp>

#include "sim/graph/builder.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;
using namespace trainsim::test;

namespace {
double compute_bytes(const StageGraph& g) {
  double bytes = 0;
  for (size_t t = 0; t < g.size(); ++t) {
    const Task& task = g.task(static_cast<TaskId>(t));
    if (task.kind == TaskKind::kCompute) bytes += task.bytes;
  }
  return bytes;
}
}  // namespace

TEST_CASE("unfused gradient accumulation reads and writes each linear weight's main gradient per micro-batch",
          "[graph]") {
  // 6 layers over pp 3: stage 1 holds 2 layers and neither embedding nor output layer.
  // h = 256, tp 2: the linear weights of a layer are QKV 3h² + projection h² + MLP 8h² = 12h²,
  // /tp = 12 x 65536 / 2 = 393,216 per device; 786,432 for the stage's 2 layers.
  // bf16 run: bf16 gradient read (2 B) + fp32 main gradient read and written (8 B) = 10 B each.
  // Micro-batches: 24 / (dp 2 x micro-batch 2) = 6. Extra bytes: 786,432 x 10 x 6 = 47,185,920.
  RunSpec run = gpt_run(gpt_model(6, 256, 4, 1024), 2, 3, 2, 128, 24, 2);
  const double fused = compute_bytes(build_stage_graph(run, 1));
  run.strategy.grad_accumulation_fusion = false;
  const double unfused = compute_bytes(build_stage_graph(run, 1));
  CHECK(unfused - fused == Approx(47185920.0));
}
