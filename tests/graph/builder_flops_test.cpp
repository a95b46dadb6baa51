// The FLOPs the task graphs execute, summed over all devices, against Narayanan et al. SC'21.
#include <catch2/catch.hpp>

#include "sim/graph/builder.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;
using namespace trainsim::test;

namespace {

// GEMM FLOPs of one iteration over all devices: every stage graph once per device on that stage.
double gemm_flops_all_devices(const RunSpec& run) {
  const RunGraph g = build_run_graph(run);
  const double devices_per_stage = static_cast<double>(run.devices) / run.strategy.pp;
  double total = 0;
  for (const auto& stage : g.stages)
    for (size_t t = 0; t < stage.size(); ++t) {
      const Task& task = stage.task(static_cast<TaskId>(t));
      if (task.kind == TaskKind::kCompute && task.kernel_class == KernelClass::kGemm) total += task.flops;
    }
  return total * devices_per_stage;
}

}  // namespace

TEST_CASE("GEMM FLOPs over all devices equal Narayanan's count without the attention-score term", "[graph]") {
  // l = 4, h = 256, a = 4, V = 1024, s = 128, B = 16 (tp 2, pp 2, dp 2, micro-batch 2 → m = 4).
  // Per layer forward GEMMs: QKV 6Bsh^2, projection 2Bsh^2, MLP 16Bsh^2 = 24Bsh^2; backward twice
  // that: 72Bslh^2 per iteration. Logits GEMM 2BshV forward, 4BshV backward: 6BshV.
  // The s^2 attention term of 72Bslh^2(1 + s/6h + ...) is in attention kernels, not GEMMs.
  const double l = 4, h = 256, V = 1024, s = 128, B = 16;
  RunSpec run = gpt_run(gpt_model(4, 256, 4, 1024), 2, 2, 2, 128, 16, 2);
  CHECK(gemm_flops_all_devices(run) == Approx(72 * B * s * l * h * h + 6 * B * s * h * V).epsilon(1e-12));
}

TEST_CASE("full recompute adds one forward of every layer's GEMMs (96 instead of 72)", "[graph]") {
  // Recomputing each layer's forward adds 24Bslh^2; the logits layer is not recomputed:
  // 96Bslh^2 + 6BshV, i.e. Narayanan's 96Bslh^2(1 + V/(16lh)) without the s/6h term.
  const double l = 4, h = 256, V = 1024, s = 128, B = 16;
  RunSpec run = gpt_run(gpt_model(4, 256, 4, 1024), 2, 2, 2, 128, 16, 2);
  run.strategy.recompute = Recompute::kFull;
  CHECK(gemm_flops_all_devices(run) == Approx(96 * B * s * l * h * h + 6 * B * s * h * V).epsilon(1e-12));
}

TEST_CASE("tensor parallelism splits GEMM FLOPs without changing their total", "[graph]") {
  const ModelSpec m = gpt_model(4, 256, 4, 1024);
  const double t1 = gemm_flops_all_devices(gpt_run(m, 1, 1, 2, 128, 16, 2));
  const double t4 = gemm_flops_all_devices(gpt_run(m, 4, 1, 2, 128, 16, 2));
  CHECK(t4 == Approx(t1).epsilon(1e-12));
}
