// The memory a framework preset adds (sim/config/framework_spec.hpp FrameworkMemory), each term
// alone against the same run without it, worked by hand.
#include <catch2/catch.hpp>

#include "sim/analytic/device_memory.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

namespace {

// 4 layers, hidden 256, tp 1, pp 2, dp 2, ZeRO 1, 4 micro-batches of 1 x 128 tokens, bf16.
RunSpec base_run() {
  RunSpec run = test::gpt_run(test::gpt_model(4, 256, 4, 1000), 1, 2, 2, 128, 8, 1);
  run.strategy.zero_stage = 1;
  return run;
}

constexpr double kGiB = 1024.0 * 1024 * 1024;

}  // namespace

TEST_CASE("context and workspace add as written and the allocator reserve scales the rest", "[analytic][framework]") {
  const DeviceMemory plain = stage_memory(base_run())[0];
  RunSpec run = base_run();
  run.framework.memory.context = 1 * kGiB;
  run.framework.memory.workspace = 0.5 * kGiB;
  run.framework.memory.allocator_reserve = 0.1;
  const DeviceMemory with = stage_memory(run)[0];
  CHECK(with.weights == plain.weights);
  CHECK(with.activations == plain.activations);
  // 1.5 GiB + 10% of weights + gradients + optimizer + activations + comm buffers.
  CHECK(with.framework == Approx(1.5 * kGiB + 0.1 * plain.total()));
}

TEST_CASE("an fp32 gradient shard adds 4 bytes per parameter over the ZeRO group", "[analytic][framework]") {
  const DeviceMemory plain = stage_memory(base_run())[0];
  RunSpec run = base_run();
  run.framework.memory.fp32_grad_partition = true;
  const DeviceMemory with = stage_memory(run)[0];
  CHECK(with.optimizer - plain.optimizer == Approx(4 * plain.params / 2));  // ZeRO 1 over dp 2
  CHECK(with.gradients == plain.gradients);
}

TEST_CASE("kept stage outputs add one hidden-state tensor per in-flight micro-batch", "[analytic][framework]") {
  const DeviceMemory plain = stage_memory(base_run())[0];
  REQUIRE(plain.peak_in_flight == 2);  // 1F1B stage 0 of 2 holds min(p - 0, m) = 2 micro-batches
  RunSpec run = base_run();
  run.framework.memory.keeps_stage_outputs = true;
  const DeviceMemory with = stage_memory(run)[0];
  CHECK(with.activations - plain.activations == Approx(2 * 128.0 * 256 * 2));  // 2 x (s 128 x h 256) bf16
}

TEST_CASE("the optimizer state's precision sets its bytes per parameter over the ZeRO group", "[analytic][memory]") {
  const DeviceMemory fp32 = stage_memory(base_run())[0];
  REQUIRE(fp32.optimizer == Approx(12 * fp32.params / 2));  // fp32 m, v and master, ZeRO 1 over dp 2
  RunSpec run = base_run();
  run.strategy.optimizer_state = OptimizerState::kFp32Remainder;  // m 4 + v 4 + the master's low 2 bytes
  CHECK(stage_memory(run)[0].optimizer == Approx(10 * fp32.params / 2));
  run.strategy.optimizer_state = OptimizerState::kBf16;  // m 2 + v 2, the bf16 weight is the master
  const DeviceMemory bf16 = stage_memory(run)[0];
  CHECK(bf16.optimizer == Approx(4 * fp32.params / 2));
  CHECK(bf16.weights == fp32.weights);
  CHECK(bf16.gradients == fp32.gradients);
  // FP8 weights: no 16-bit weight to update in place or to complete, so a whole master is kept.
  CHECK(optimizer_state_bytes(OptimizerState::kBf16, true) == 6);
  CHECK(optimizer_state_bytes(OptimizerState::kFp32Remainder, true) == 12);
  CHECK(optimizer_state_bytes(OptimizerState::kFp32, true) == 12);
}
