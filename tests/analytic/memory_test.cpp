#include <catch2/catch.hpp>

#include "sim/analytic/activation_memory.hpp"
#include "sim/analytic/device_memory.hpp"
#include "sim/analytic/memory.hpp"
#include "sim/core/error.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

namespace {
ModelStateInput psi(double params, int n, int stage) {
  ModelStateInput in;
  in.params = params;
  in.dp_group = n;
  in.zero_stage = stage;
  return in;
}
double total(const ModelStateBytes& s) { return s.weights + s.gradients + s.optimizer; }
}  // namespace

// Ψ = 1e9 parameters over N = 8 ranks (ZeRO paper, Fig. 1's K = 12 accounting).
TEST_CASE("ZeRO stages hold 16, 4+12/N, 2+14/N and 16/N bytes per parameter", "[analytic]") {
  CHECK(total(model_state_bytes(psi(1e9, 8, 0))) == Approx(16e9));
  CHECK(total(model_state_bytes(psi(1e9, 8, 1))) == Approx(4e9 + 1.5e9));  // 4Ψ + 12Ψ/8
  CHECK(total(model_state_bytes(psi(1e9, 8, 2))) == Approx(2e9 + 1.75e9)); // 2Ψ + 14Ψ/8
  CHECK(total(model_state_bytes(psi(1e9, 8, 3))) == Approx(2e9));          // 16Ψ/8
  const ModelStateBytes z2 = model_state_bytes(psi(1e9, 8, 2));
  CHECK(z2.weights == Approx(2e9));
  CHECK(z2.gradients == Approx(0.25e9));
  CHECK(z2.optimizer == Approx(1.5e9));
  CHECK_THROWS_AS(model_state_bytes(psi(1e9, 8, 4)), StrategyError);
}

TEST_CASE("expert parameters are sharded over the expert-data-parallel group", "[analytic]") {
  ModelStateInput in = psi(1e9, 8, 1);
  in.expert_params = 2e9;
  in.expert_dp_group = 2;  // dp·cp/ep = 8/4
  // Dense 4Ψ + 12Ψ/8 = 5.5e9; expert 4·2e9 + 12·2e9/2 = 8e9 + 12e9 = 20e9.
  CHECK(total(model_state_bytes(in)) == Approx(25.5e9));
}

TEST_CASE("optimizer offload moves the 12-byte term to host memory", "[analytic]") {
  ModelStateInput in = psi(1e9, 4, 1);
  in.offload_optimizer = true;
  const MemoryBreakdown m = memory_breakdown(in, 3e9, 1e8, 2e9);
  CHECK(m.optimizer == 0);
  CHECK(m.host_optimizer == Approx(3e9));  // 12Ψ/4
  // Device total: weights 2e9 + gradients 2e9 + activations 3e9 + buffers 0.1e9 + framework 2e9.
  CHECK(m.total == Approx(9.1e9));
}

TEST_CASE("1F1B stage i holds min(p - i, m) micro-batches of activations", "[analytic]") {
  CHECK(in_flight_1f1b(4, 0, 8) == 4);
  CHECK(in_flight_1f1b(4, 3, 8) == 1);
  CHECK(in_flight_1f1b(4, 0, 2) == 2);  // fewer micro-batches than stages
  // Stage 0 of p = 4, 6 layers of 1 MB each, 0.5 MB embedding extras: 4·(6 + 0.5) MB = 26 MB.
  CHECK(activations_in_flight(in_flight_1f1b(4, 0, 8), 6, 1e6, 0.5e6, in_flight_1f1b(4, 0, 8)) == Approx(26e6));
  // Interleaving with p = 4, v = 2: 1 + 3/8 = 1.375.
  CHECK(interleaved_memory_factor(4, 2) == Approx(1.375));
}

TEST_CASE("communication buffers hold two gradient buckets and, under ZeRO-3, two gathered layers",
          "[analytic]") {
  CHECK(comm_buffer_bytes(1, 40e6, 0, 1e8, 2) == 0);       // no DP: no buckets
  CHECK(comm_buffer_bytes(8, 40e6, 1, 1e8, 2) == 80e6);    // 2 × 40 MB
  CHECK(comm_buffer_bytes(8, 40e6, 3, 1e8, 2) == 480e6);   // + 2 × 1e8 params × 2 B
}

TEST_CASE("the gradient buffer holds 4 bytes per parameter in bf16 runs, 2 with grad_precision bf16",
          "[analytic]") {
  // No ZeRO: every device keeps the gradients of all the parameters it holds.
  RunSpec run = trainsim::test::gpt_run(trainsim::test::gpt_model(4, 256, 4, 1024), 1, 2, 2, 128, 8, 1);
  const DeviceMemory fp32_grads = stage_memory(run)[0];
  CHECK(fp32_grads.gradients == Approx(4.0 * fp32_grads.params));
  run.strategy.grad_precision = Precision::kBf16;
  const DeviceMemory bf16_grads = stage_memory(run)[0];
  CHECK(bf16_grads.gradients == Approx(2.0 * bf16_grads.params));
  CHECK(bf16_grads.total() == Approx(fp32_grads.total() - 2.0 * fp32_grads.params));
}

namespace fp8_weights_test {
// 4 layers, h 256, ffn 1024, tp 1, pp 2: a stage holds 2 layers of 4h^2 + 8h^2 = 12h^2 Linear weights.
constexpr double kStageLinear = 2 * 12.0 * 256 * 256;

RunSpec fp8_run() {
  RunSpec run = trainsim::test::gpt_run(trainsim::test::gpt_model(4, 256, 4, 1024), 1, 2, 2, 128, 8, 1);
  run.platform.accelerator.peak_flops[Precision::kFp8] = 2e15;
  run.platform.accelerator.fp8_gemm_efficiency = 0.5;
  run.precision = Precision::kFp8;
  return run;
}
}  // namespace fp8_weights_test

TEST_CASE("an fp8 run caches an FP8 copy and transpose of every Linear weight, none with fp8 params",
          "[analytic][fp8]") {
  RunSpec run = fp8_weights_test::fp8_run();
  const double linear = fp8_weights_test::kStageLinear;
  const DeviceMemory plain = stage_memory(run)[1];
  run.fp8.param_gather = true;  // the FP8 parameter (1 B) replaces the bf16 one (2 B); its transpose adds 1 B
  const DeviceMemory fp8_params = stage_memory(run)[1];
  CHECK(plain.weights - fp8_params.weights == Approx(2.0 * linear));
  CHECK(fp8_params.weights == Approx(2.0 * fp8_params.params));
}

TEST_CASE("on a card whose FP8 GEMMs take any layout an fp8 run keeps one FP8 copy of each Linear weight",
          "[analytic][fp8]") {
  // The run above on a Blackwell-like card: no transposes. Without fp8 params: bf16 (2 B) + FP8 copy (1 B),
  // 1 B per Linear weight less than with the transpose; with fp8 params the FP8 parameter alone (1 B).
  RunSpec run = fp8_weights_test::fp8_run();
  const double linear = fp8_weights_test::kStageLinear;
  const DeviceMemory hopper = stage_memory(run)[1];
  run.platform.accelerator.fp8_gemm_any_layout = true;
  const DeviceMemory any = stage_memory(run)[1];
  CHECK(hopper.weights - any.weights == Approx(linear));
  run.fp8.param_gather = true;
  const DeviceMemory fp8_params = stage_memory(run)[1];
  CHECK(any.weights - fp8_params.weights == Approx(2.0 * linear));  // 3 B -> 1 B per Linear weight
  run.fp8.recipe = Fp8Recipe::kMxfp8;  // MXFP8 keeps both layouts on any card: 2 x 33/32 B - 2 B
  run.precision = Precision::kMxfp8;
  CHECK(stage_memory(run)[1].weights - fp8_params.weights == Approx(linear * (2 * 33.0 / 32 - 1)));
}

TEST_CASE("an fp8 layer saves its Linear inputs as one-byte copies", "[analytic][fp8]") {
  // tiny GPT layer (h 64, 4 heads, ffn 256), b 1, s 64, no TP, flash attention, no dropout: T = 64.
  // fp8 keeps the QKV and fc1 inputs (64 x 64 each) and the fc2 input (64 x 256) at 1 B instead of 2
  // and adds a 1-byte copy of the projection input (64 x 64): 1 B x (4096 + 4096 + 16384) saved,
  // 1 B x 4096 added: 20480 B less.
  const ModelSpec m = trainsim::test::tiny_gpt();
  Shard sh = trainsim::test::shard(1, 64);
  ActivationOptions opt;
  const Bytes bf16 = layer_activation_bytes(m, sh, 0, opt);
  sh.precision = Precision::kFp8;
  const Bytes fp8 = layer_activation_bytes(m, sh, 0, opt);
  CHECK(bf16 - fp8 == Approx(20480));
}
