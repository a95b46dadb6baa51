#include <catch2/catch.hpp>
#include <string>

#include "sim/model/attention_ops.hpp"
#include "sim/model/embedding_ops.hpp"
#include "sim/model/kernel_builders.hpp"
#include "sim/model/optimizer_ops.hpp"
#include "tests/model/model_fixtures.hpp"

using namespace trainsim;
using trainsim::test::shard;

TEST_CASE("the logits GEMM is vocab-parallel: 2*b*s*h*V/t per device, twice that backward", "[model]") {
  const ModelSpec m = trainsim::test::tiny_gpt();  // h=64, V=100
  const Shard sh = shard(2, 32, 4);
  // V/t = 25 columns: 2·64·25·64 = 204,800 FLOP.
  const std::vector<Kernel> fwd = output_forward(m, sh);
  CHECK(total_flops(fwd, KernelClass::kGemm) == 204800.0);
  CHECK(total_flops(output_backward(m, sh), KernelClass::kGemm) == 2 * 204800.0);
  // Megatron's cross entropy, one HBM pass per op on 64·25 = 1,600 local logits: the 2-byte read
  // by .float(), then 5 fp32 reads (cast output, max, sub, exp, sum... see embedding_ops.cpp) and
  // 4 fp32 writes: 1,600·(2 + 20 + 16) = 60,800 bytes. Backward: 2 fp32 reads, 1 fp32 write and
  // the 2-byte gradient: 1,600·(8 + 4 + 2) = 22,400 bytes.
  int seen = 0;
  for (const Kernel& k : fwd) {
    if (k.name == "cross_entropy.fwd") {
      CHECK(k.bytes == 60800.0);
      ++seen;
    }
  }
  for (const Kernel& k : output_backward(m, sh)) {
    if (k.name == "cross_entropy.dgrad") {
      CHECK(k.bytes == 22400.0);
      ++seen;
    }
  }
  CHECK(seen == 2);
}

TEST_CASE("Transformer Engine's fused cross entropy passes the 16-bit logits three times forward, twice back",
          "[model]") {
  const ModelSpec m = trainsim::test::tiny_gpt();  // h=64, V=100
  Shard sh = shard(2, 32, 4);
  sh.fused_cross_entropy = true;
  // 1,600 local bf16 logits: forward reads them twice and writes the gradient in place,
  // 1,600 x 3 x 2 = 9,600 bytes in two launches; backward scales it in place, 1,600 x 2 x 2 = 6,400.
  const Kernel fwd = trainsim::test::find_kernel(output_forward(m, sh), "cross_entropy.fwd");
  CHECK(fwd.bytes == 9600.0);
  CHECK(fwd.launches == 2);
  CHECK(trainsim::test::find_kernel(output_backward(m, sh), "cross_entropy.dgrad").bytes == 6400.0);
}

TEST_CASE("a learned position table replaces RoPE: no rotary kernels, three more passes in the embedding; ALiBi has neither", "[model]") {
  ModelSpec m = trainsim::test::tiny_gpt();  // h=64
  const Shard sh = shard(2, 32, 2);
  auto has_rope = [&](const std::vector<Kernel>& ks) {
    for (const Kernel& k : ks)
      if (k.name.rfind("rope.", 0) == 0) return true;
    return false;
  };
  m.position_embedding = PositionEmbedding::kRope;
  CHECK(has_rope(attention_forward(m, sh)));
  CHECK(has_rope(attention_backward(m, sh)));
  const double rope_bytes = embedding_forward(m, sh)[0].bytes;
  m.position_embedding = PositionEmbedding::kLearned;
  CHECK_FALSE(has_rope(attention_forward(m, sh)));
  CHECK_FALSE(has_rope(attention_backward(m, sh)));
  // 64 tokens x 64 wide x 2 bytes, read the rows, read the token embedding, write the sum: 3 x 8,192.
  CHECK(embedding_forward(m, sh)[0].bytes - rope_bytes == 3 * 8192.0);
  // ALiBi: neither the rotary kernels nor the position table; the embedding moves what it moves under RoPE.
  m.position_embedding = PositionEmbedding::kAlibi;
  CHECK_FALSE(has_rope(attention_forward(m, sh)));
  CHECK_FALSE(has_rope(attention_backward(m, sh)));
  CHECK(embedding_forward(m, sh)[0].bytes == rope_bytes);
}

TEST_CASE("the embedding gather has no FLOPs and its gradient is a deferrable weight gradient", "[model]") {
  const ModelSpec m = trainsim::test::tiny_gpt();
  const Shard sh = shard(2, 32, 2);
  const std::vector<Kernel> fwd = embedding_forward(m, sh);
  REQUIRE(fwd.size() == 1);
  CHECK(fwd[0].cls == KernelClass::kEmbedding);
  CHECK(fwd[0].flops == 0);
  // ids 64·8 = 512 + rows of this rank's slice 64·64·2/2 = 4,096 + output 64·64·2 = 8,192 → 12,800 B.
  CHECK(fwd[0].bytes == 12800.0);
  const std::vector<Kernel> bwd = embedding_backward(m, sh);
  REQUIRE(bwd.size() == 1);
  CHECK(bwd[0].weight_grad);
}

TEST_CASE("Adam moves 30 bytes per updated parameter and ZeRO shards what each device updates", "[model]") {
  // 1e6 parameters, ZeRO over N = 4: 250,000 updated; 16 read + 14 written = 30 B each → 7.5e6 B.
  const std::vector<Kernel> k = optimizer_step(1e6, 0.25);
  REQUIRE(k.size() == 2);
  CHECK(k[1].cls == KernelClass::kOptimizer);
  CHECK(k[1].bytes == 7.5e6);
  CHECK(k[0].bytes == 4 * 250000.0);  // gradient-norm pass reads the fp32 gradient
}

TEST_CASE("the distributed optimizer shards routed experts over their expert data-parallel group", "[model]") {
  // 600 parameters sharded over dp 4 and 400 routed experts' over cp*dp/ep = 1*4/2 = 2:
  // 150 + 200 = 350 of the 1,000 in the shard. ep 1: all over dp (250); no ZeRO: all 1,000.
  ParamCount device;
  device.attention = 600;
  device.moe_experts = 400;
  StrategySpec s;
  s.dp = 4;
  s.ep = 2;
  s.zero_stage = 1;
  CHECK(zero_shard_fraction(device, s) == Approx(0.35));
  s.ep = 4;  // each rank alone with its experts: 150 + 400
  CHECK(zero_shard_fraction(device, s) == Approx(0.55));
  s.ep = 1;
  CHECK(zero_shard_fraction(device, s) == Approx(0.25));
  s.zero_stage = 0;
  CHECK(zero_shard_fraction(device, s) == Approx(1.0));
}
