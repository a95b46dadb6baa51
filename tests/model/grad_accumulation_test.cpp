// Unfused gradient accumulation (Megatron --no-gradient-accumulation-fusion): an add kernel per
// weight-gradient GEMM, over that GEMM's weights.
#include <catch2/catch.hpp>
#include <string>

#include "sim/model/grad_accumulation.hpp"
#include "sim/model/mlp_ops.hpp"
#include "tests/model/model_fixtures.hpp"

using namespace trainsim;
using trainsim::test::shard;
using trainsim::test::tiny_gpt;

TEST_CASE("without accumulation fusion each weight-gradient GEMM is followed by an add over its weights", "[model]") {
  // Tiny GPT MLP on tp 2: fc1 is h x ffn/t = 64 x 128 = 8192 weights, fc2 128 x 64 = 8192.
  // bf16 gradient (2 B) added into an fp32 main gradient (read 4 B + write 4 B): 10 B per weight,
  // 81,920 bytes and 8192 adds per GEMM.
  const std::vector<Kernel> fused = mlp_backward(tiny_gpt(), shard(2, 32, 2));
  const std::vector<Kernel> unfused = with_unfused_grad_accumulation(fused, 2, 4);
  REQUIRE(unfused.size() == fused.size() + 2);
  for (size_t i = 0; i + 1 < unfused.size(); ++i) {
    if (!(unfused[i].weight_grad && unfused[i].cls == KernelClass::kGemm)) continue;
    const Kernel& add = unfused[i + 1];
    CHECK(add.name == unfused[i].name + ".accumulate");
    CHECK(add.cls == KernelClass::kElementwise);
    CHECK(add.weight_grad);
    CHECK(add.bytes == 81920.0);
    CHECK(add.flops == 8192.0);
  }
  CHECK(trainsim::test::find_kernel(unfused, "mlp_fc2.wgrad.accumulate").bytes == 81920.0);
}

TEST_CASE("an accumulation kernel counts every expert's weights of a grouped GEMM", "[model]") {
  // A grouped weight-gradient GEMM of 4 experts, each 32 x 16: 2048 weights; fp16 gradients into
  // an fp16 main gradient: 2 + 2 x 2 = 6 bytes each = 12,288 bytes.
  Kernel wgrad;
  wgrad.name = "moe_expert_fc1.wgrad";
  wgrad.cls = KernelClass::kGemm;
  wgrad.gemm = {32, 16, 512, 4};
  wgrad.weight_grad = true;
  CHECK(grad_accumulation_kernel(wgrad, 2, 2).bytes == 12288.0);
}
