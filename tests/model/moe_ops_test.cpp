#include <catch2/catch.hpp>
#include <string>

#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/model/kernel_builders.hpp"
#include "sim/model/layer_ops.hpp"
#include "sim/model/moe_ops.hpp"
#include "tests/model/model_fixtures.hpp"

using namespace trainsim;
using trainsim::test::shard;

namespace {
// h=64, 8 experts of width 128, top-2, GeLU.
ModelSpec tiny_moe() {
  ModelSpec m = trainsim::test::tiny_gpt();
  m.moe.experts = 8;
  m.moe.top_k = 2;
  m.moe.expert_ffn_hidden = 128;
  return m;
}
Kernel kernel_named(const std::vector<Kernel>& ks, const std::string& name) { return trainsim::test::find_kernel(ks, name); }
}  // namespace

TEST_CASE("each local expert processes r*b*s*top_k*ep/experts rows in a grouped GEMM", "[model]") {
  ModelSpec m = tiny_moe();
  Shard sh = shard(1, 64);
  sh.ep = 2;
  // 1·64·2·2/8 = 32 rows per expert; experts/ep = 4 GEMMs in the group.
  const Kernel& fc1 = kernel_named(moe_forward(m, sh), "moe_expert_fc1.fwd");
  CHECK(fc1.gemm.m == 32);
  CHECK(fc1.gemm.batch == 4);
  CHECK(fc1.gemm.n == 128);
  sh.expert_load = 1.25;  // padded to a capacity of 1.25 even shares (RunSpec::expert_load): 40 rows
  CHECK(tokens_per_local_expert(m, sh) == 40);
}

TEST_CASE("routed expert FLOPs on a device equal top_k expert FFNs per token under even routing",
          "[model]") {
  const ModelSpec m = tiny_moe();
  Shard sh = shard(2, 32);
  sh.ep = 4;
  double expert = 0;
  for (const Kernel& k : moe_forward(m, sh)) {
    if (k.name.rfind("moe_expert_fc", 0) == 0) expert += k.flops;
  }
  // b·s·top_k·(2 matrices)·2·h·f = 64·2·2·2·64·128 = 4,194,304 FLOP.
  CHECK(expert == 4194304.0);
}

TEST_CASE("shared experts are dense GEMMs over every token, split over tp", "[model]") {
  ModelSpec m = tiny_moe();
  m.moe.shared_experts = 2;
  m.gated_ffn = true;
  const std::vector<Kernel> k = moe_forward(m, shard(2, 32, 2));
  // Shared width 2·128 = 256, per TP rank 128; gated fc1 fuses gate+up → n = 256.
  CHECK(kernel_named(k, "moe_shared_fc1.fwd").gemm.n == 256);
  CHECK(kernel_named(k, "moe_shared_fc1.fwd").gemm.m == 64);
  CHECK(kernel_named(k, "moe_shared_fc2.fwd").gemm.k == 128);
}

TEST_CASE("the router is an h x experts GEMM over the sequence-parallel tokens", "[model]") {
  const ModelSpec m = tiny_moe();
  const Kernel router = kernel_named(moe_forward(m, shard(2, 32, 4, true)), "router.fwd");
  // b·s/t = 64/4 = 16 tokens, n = 8 experts, k = h = 64: 2·16·8·64 = 16,384 FLOP.
  CHECK(router.gemm.m == 16);
  CHECK(router.flops == 16384.0);
}

TEST_CASE("MoE backward has a weight-gradient kernel for every forward GEMM", "[model]") {
  ModelSpec m = tiny_moe();
  m.moe.shared_experts = 1;
  const Shard sh = shard(2, 32);
  const std::vector<Kernel> fwd = moe_forward(m, sh);
  const std::vector<Kernel> bwd = moe_backward(m, sh);
  double wgrad = 0;
  for (const Kernel& k : bwd) {
    if (k.weight_grad) wgrad += k.flops;
  }
  CHECK(wgrad == total_flops(fwd, KernelClass::kGemm));
  // The block's input gradient: the norm's backward, then autograd's sum with the residual path's.
  REQUIRE(bwd.size() >= 2);
  CHECK(bwd[bwd.size() - 2].name == "moe_norm.dgrad");
  CHECK(bwd.back().name == "moe_residual.dgrad");
}

TEST_CASE("an expert degree that does not divide the experts is a strategy error", "[model]") {
  const ModelSpec m = tiny_moe();
  Shard sh = shard(1, 16);
  sh.ep = 3;
  CHECK_THROWS_AS(moe_forward(m, sh), StrategyError);
}

TEST_CASE("MoE layers start after the dense prefix and repeat every layer_frequency layers", "[model]") {
  ModelSpec m = tiny_moe();
  m.layers = 8;
  m.moe.first_dense_layers = 3;  // DeepSeek-V3 style: layers 0-2 dense, 3.. MoE
  CHECK_FALSE(is_moe_layer(m, 2));
  CHECK(is_moe_layer(m, 3));
  CHECK(is_moe_layer(m, 7));
  CHECK(moe_layer_count(m) == 5);
  m.moe.first_dense_layers = 1;
  m.moe.layer_frequency = 2;  // MoE at 1, 3, 5, 7
  CHECK(is_moe_layer(m, 1));
  CHECK_FALSE(is_moe_layer(m, 2));
  CHECK(moe_layer_count(m) == 4);
  ModelSpec dense = trainsim::test::tiny_gpt();
  CHECK_FALSE(is_moe_layer(dense, 0));
}

TEST_CASE("the alltoall dispatcher's chunk sort adds a pass over the routed rows on each side of the exchange",
          "[model]") {
  const ModelSpec m = tiny_moe();  // h 64, 8 experts, top-2
  Shard sh = shard(1, 64);
  sh.ep = 2;  // 4 local experts of 32 rows: 128 routed rows
  const auto fwd = moe_forward(m, sh), bwd = moe_backward(m, sh);
  sh.chunk_sort = true;
  const auto fwd_sorted = moe_forward(m, sh), bwd_sorted = moe_backward(m, sh);
  // One read and one write of the 128 routed rows of 64 bf16 values: 2 x 128 x 64 x 2 B = 32,768 bytes,
  // in the permutation after the forward exchange, the un-permutation before the return exchange, and
  // both backward passes.
  for (const char* name : {"moe_permute.fwd", "moe_unpermute.fwd"})
    CHECK(kernel_named(fwd_sorted, name).bytes - kernel_named(fwd, name).bytes == 32768.0);
  for (const char* name : {"moe_permute.dgrad", "moe_unpermute.dgrad"})
    CHECK(kernel_named(bwd_sorted, name).bytes - kernel_named(bwd, name).bytes == 32768.0);
  CHECK(kernel_named(fwd_sorted, "moe_expert_fc1.fwd").bytes == kernel_named(fwd, "moe_expert_fc1.fwd").bytes);
}

TEST_CASE("a run sorts chunks only with the alltoall dispatcher and several experts behind an exchange", "[model]") {
  RunSpec run = load_run(data_dir() / "validation" / "runs" / "mb-qwen3-30b-a3b.yaml");  // alltoall, ep 8, 128 experts
  CHECK(shard_of(run).chunk_sort);
  run.moe.dispatcher = MoeDispatcher::kFlex;  // DeepEP / HybridEP: one local permutation
  CHECK_FALSE(shard_of(run).chunk_sort);
  run.moe.dispatcher = MoeDispatcher::kAllToAll;
  run.strategy.ep = 1;  // no exchange: the permutation already orders by expert
  CHECK_FALSE(shard_of(run).chunk_sort);
  run.strategy.ep = 128;  // one expert per rank: nothing to sort
  CHECK_FALSE(shard_of(run).chunk_sort);
}

TEST_CASE("fp32 router logits run the router's backward GEMMs as TF32 between casts to and from fp32", "[model]") {
  const ModelSpec m = tiny_moe();  // h 64, 8 experts
  Shard sh = shard(2, 32);         // 64 tokens routed on this device
  const auto fwd = moe_forward(m, sh), bwd = moe_backward(m, sh);
  sh.router_fp32 = true;
  const auto fwd32 = moe_forward(m, sh), bwd32 = moe_backward(m, sh);
  // The forward is unchanged: Transformer Engine's GEMM takes the 16-bit operands and writes fp32 logits.
  REQUIRE(fwd32.size() == fwd.size());
  CHECK(kernel_named(fwd32, "router.fwd").precision == Precision::kBf16);
  // Backward: both router GEMMs in TF32 with their FLOPs unchanged, and four casts more.
  CHECK(bwd32.size() == bwd.size() + 4);
  for (const char* name : {"router.dgrad", "router.wgrad"}) {
    CHECK(kernel_named(bwd32, name).precision == Precision::kTf32);
    CHECK(kernel_named(bwd32, name).flops == kernel_named(bwd, name).flops);
  }
  // Input (64 tokens x 64) read in bf16 and written in fp32: 4,096 x (2 + 4) = 24,576 bytes; its
  // gradient cast back the same; the 64 x 8 weight 512 x 6 = 3,072 bytes each way.
  CHECK(kernel_named(bwd32, "router_input_cast.wgrad").bytes == 24576.0);
  CHECK(kernel_named(bwd32, "router_grad_cast.dgrad").bytes == 24576.0);
  CHECK(kernel_named(bwd32, "router_weight_cast.dgrad").bytes == 3072.0);
  CHECK(kernel_named(bwd32, "router_weight_cast.wgrad").bytes == 3072.0);
  // The casts only the weight gradient needs are its work (zero-bubble schedules defer them with it).
  CHECK(kernel_named(bwd32, "router_input_cast.wgrad").weight_grad);
  CHECK(kernel_named(bwd32, "router_weight_cast.wgrad").weight_grad);
  CHECK_FALSE(kernel_named(bwd32, "router_grad_cast.dgrad").weight_grad);
}

TEST_CASE("a run has fp32 router logits only when it asks for them and its activations are 16-bit", "[model]") {
  RunSpec run = load_run(data_dir() / "validation" / "runs" / "mlm-recipe-qwen3-30b-a3b.yaml");  // bf16, fp32 router
  CHECK(shard_of(run).router_fp32);
  run.moe.router_dtype = MoeRouterDtype::kActivation;
  CHECK_FALSE(shard_of(run).router_fp32);
  run.moe.router_dtype = MoeRouterDtype::kFp32;
  run.precision = Precision::kFp32;  // the logits are fp32 already: nothing to cast
  CHECK_FALSE(shard_of(run).router_fp32);
}

TEST_CASE("forced balance adds the random logits' two kernels to the router's forward only", "[model]") {
  const ModelSpec m = tiny_moe();  // 8 experts
  Shard sh = shard(2, 32);         // 64 tokens routed: 512 fp32 scores
  const auto fwd = moe_forward(m, sh), bwd = moe_backward(m, sh);
  sh.router_force_balance = true;
  const auto fwd_b = moe_forward(m, sh), bwd_b = moe_backward(m, sh);
  REQUIRE(fwd_b.size() == fwd.size() + 2);
  CHECK(bwd_b.size() == bwd.size());                                        // a straight-through estimator
  CHECK(kernel_named(fwd_b, "router_logits_clone.fwd").bytes == 512.0 * 8);  // clone: read and write
  CHECK(kernel_named(fwd_b, "router_random_logits.fwd").bytes == 512.0 * 4);  // normal_: write
}

TEST_CASE("the auxiliary loss adds four kernels to the router's forward and four to its backward", "[model]") {
  const ModelSpec m = tiny_moe();
  Shard sh = shard(2, 32);  // 512 fp32 scores
  const auto fwd = moe_forward(m, sh), bwd = moe_backward(m, sh);
  sh.router_aux_loss = true;
  const auto fwd_a = moe_forward(m, sh), bwd_a = moe_backward(m, sh);
  REQUIRE(fwd_a.size() == fwd.size() + 4);
  REQUIRE(bwd_a.size() == bwd.size() + 4);
  // Scores: logits read, scores written (fp32) and the 1-byte routing map: 512 x 9 bytes; the map summed
  // per expert: 512 bytes; the loss reads the scores: 512 x 4.
  CHECK(kernel_named(fwd_a, "router_aux_scores.fwd").bytes == 512.0 * 9);
  CHECK(kernel_named(fwd_a, "router_tokens_per_expert.fwd").bytes == 512.0);
  CHECK(kernel_named(fwd_a, "router_aux_loss.fwd").bytes == 512.0 * 4);
  // Backward: the scores' gradient written, then turned into the logits' (2 reads, 1 write), and the
  // logits' two gradients (top-k's and the loss's) added.
  CHECK(kernel_named(bwd_a, "router_aux_loss.dgrad").bytes == 512.0 * 4);
  CHECK(kernel_named(bwd_a, "router_aux_scores.dgrad").bytes == 512.0 * 12);
  CHECK(kernel_named(bwd_a, "router_logits_grad_add.dgrad").bytes == 512.0 * 12);
  for (const Kernel& k : bwd_a) CHECK_FALSE((k.name.rfind("router_aux", 0) == 0 && k.weight_grad));
}
