// Multi-head latent attention (sim/model/mla_ops.hpp) on a tiny layer worked by hand, and the DeepSeek-V3
// preset against its published parameter count.
#include <catch2/catch.hpp>

#include "sim/analytic/activation_memory.hpp"
#include "sim/config/loader.hpp"
#include "sim/model/attention_ops.hpp"
#include "sim/model/mla_ops.hpp"
#include "sim/model/model_flops.hpp"
#include "sim/model/params.hpp"
#include "sim/model/recompute_ops.hpp"
#include "tests/model/model_fixtures.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;
using namespace trainsim::test;

namespace mla_ops_test {

// h 64, 4 heads; query latent 32, key/value latent 16, per head 8 + 4 rotary for queries and keys,
// 8 for values: a query/key head is 12 wide. One layer, GPT-style FFN (4h, LayerNorm).
ModelSpec tiny_mla() {
  ModelSpec m = gpt_style(1, 64, 4, 100);
  m.mla = {32, 16, 8, 4, 8};
  m.head_dim = 12;
  return m;
}

void check_gemm(const std::vector<Kernel>& ks, const std::string& name, int64_t m, int64_t n, int64_t k) {
  const Kernel g = find_kernel(ks, name);
  INFO(name);
  CHECK(g.cls == KernelClass::kGemm);
  CHECK(g.gemm.m == m);
  CHECK(g.gemm.n == n);
  CHECK(g.gemm.k == k);
}

std::vector<std::string> names(const std::vector<Kernel>& ks) {
  std::vector<std::string> out;
  for (const Kernel& k : ks) out.push_back(k.name);
  return out;
}

// The attention kernels of `m` (16 tokens, tp 1) that selective recompute of `modules` re-runs.
std::vector<std::string> redone_attention(const ModelSpec& m, const RecomputeModules& modules) {
  std::vector<std::string> redone;
  for (const Kernel& k : attention_forward(m, shard(1, 16)))
    if (selectively_recomputed(k.name, LayerBlock::kAttention, modules, m)) redone.push_back(k.name);
  return redone;
}

}  // namespace mla_ops_test

using namespace mla_ops_test;

TEST_CASE("MLA's forward: down-projections, latent norms, up-projections, rotary, attention over 12 + 8 wide heads",
          "[model][mla]") {
  const ModelSpec m = tiny_mla();
  const std::vector<Kernel> fwd = attention_forward(m, shard(1, 16));
  CHECK(names(fwd) == std::vector<std::string>{"attn_norm.fwd", "q_down_proj.fwd", "kv_down_proj.fwd", "q_norm.fwd",
                                               "kv_norm.fwd", "q_up_proj.fwd", "kv_up_proj.fwd", "mla_rope_q.fwd",
                                               "mla_rope_kv.fwd", "core_attention.fwd", "out_proj.fwd",
                                               "attn_residual.fwd"});
  // 16 tokens: q 64 -> 32 -> 4 x 12; kv 64 -> 16 + 4 -> 4 x (8 + 8); output 4 x 8 -> 64.
  check_gemm(fwd, "q_down_proj.fwd", 16, 32, 64);
  check_gemm(fwd, "kv_down_proj.fwd", 16, 20, 64);
  check_gemm(fwd, "q_up_proj.fwd", 16, 48, 32);
  check_gemm(fwd, "kv_up_proj.fwd", 16, 64, 16);
  check_gemm(fwd, "out_proj.fwd", 16, 64, 32);
  // Scores and values, non-causal: 2 x 16 x 16 x (12 + 8) x 4 = 40,960 FLOP; the fused kernel runs the
  // causal half. It reads Q, K (12 wide) and V (8), writes O (8): 16 x 4 x (12 + 8) x 2 elements at
  // 2 B = 5,120 B, plus the fp32 log-sum-exp 16 x 4 x 4 = 256 B.
  CHECK(core_attention_model_flops(m, shard(1, 16)) == Approx(40960));
  const Kernel core = find_kernel(fwd, "core_attention.fwd");
  CHECK(core.flops == Approx(20480));
  CHECK(core.bytes == Approx(5376));
  // The key/value rotary kernel reads kv (4 x 16) and the rotary key head (4), writes key (4 x 12) and
  // value (4 x 8): (68 + 80) x 16 tokens x 2 B = 4,736 B.
  CHECK(find_kernel(fwd, "mla_rope_kv.fwd").bytes == Approx(4736));
}

TEST_CASE("MLA's backward ends with both down-projections and the sum of their input gradients", "[model][mla]") {
  const std::vector<Kernel> bwd = attention_backward(tiny_mla(), shard(1, 16));
  check_gemm(bwd, "kv_up_proj.dgrad", 16, 16, 64);
  check_gemm(bwd, "kv_up_proj.wgrad", 16, 64, 16);
  check_gemm(bwd, "q_up_proj.dgrad", 16, 32, 48);
  check_gemm(bwd, "q_down_proj.dgrad", 16, 64, 32);
  check_gemm(bwd, "q_down_proj.wgrad", 64, 32, 16);
  check_gemm(bwd, "kv_down_proj.wgrad", 64, 20, 16);
  CHECK(find_kernel(bwd, "kv_down_proj.wgrad").weight_grad);
  CHECK_FALSE(find_kernel(bwd, "kv_down_proj.dgrad").weight_grad);
  const std::vector<std::string> n = names(bwd);
  CHECK(n[n.size() - 3] == "mla_input.dgrad_sum");
  CHECK(n[n.size() - 2] == "attn_norm.dgrad");
  // The down-projections sit outside the tensor-parallel region; the up-projections inside it.
  CHECK(tp_local_gemm("q_down_proj.fwd"));
  CHECK(tp_local_gemm("kv_down_proj.wgrad"));
  CHECK_FALSE(tp_local_gemm("q_up_proj.fwd"));
  CHECK_FALSE(tp_local_gemm("qkv_proj.fwd"));
}

TEST_CASE("MLA's weights: whole down-projections and TP-split up- and output projections", "[model][mla]") {
  const ModelSpec m = tiny_mla();
  // tp 1: q 64 x 32 + 32 x 48 = 3,584; kv 64 x 20 + 16 x 64 = 2,304; output 32 x 64 = 2,048.
  CHECK(mla_params(m, 1).projections == 7936);
  // tp 2: q 2,048 + 32 x 24 = 2,816; kv 1,280 + 16 x 32 = 1,792; output 16 x 64 = 1,024.
  CHECK(mla_params(m, 2).projections == 5632);
  CHECK(mla_params(m, 2).norms == 2 * 48);  // LayerNorm gain and bias over the two latents
  // SP moves the latents and the rotary key head: 32 + 16 + 4 elements per token, not 64.
  CHECK(tp_input_width(m) == 52);
  CHECK(tp_input_width(gpt_style(1, 64, 4, 100)) == 64);
}

TEST_CASE("Megatron-LM's MLA FLOPs term, worked by hand on the tiny layer", "[model][mla]") {
  // Per token and layer, multiply-adds: q 32 x (64 + 48 + 1) = 3,616; kv 16 x (64 + 64 + 1) = 2,064;
  // rotary key 64 x 4 = 256; output 32 x 64 = 2,048; core 16 x 48 / 2 + 16 x 32 / 2 = 640: 8,624, x 6 =
  // 51,744. The FFN 6 x 64 x 256 x 2 = 196,608 and the logits 6 x 64 x 100 = 38,400: 286,752 per token,
  // x 16 tokens = 4,588,032.
  CHECK(megatron_lm_flops(tiny_mla(), 1, 16) == Approx(4588032));
}

TEST_CASE("MLA's saved activations, counted by hand on the tiny layer", "[model][mla][memory]") {
  // 16 tokens at 2 B: attention norm input 2,048; the down-projections' one input 2,048; both latent
  // norms' inputs and outputs 16 x 48 x 4 = 3,072; query, key, value 16 x 4 x (12 + 12 + 8) x 2 = 4,096;
  // output projection input 16 x 32 x 2 = 1,024; log-sum-exp 16 x 4 x 4 = 256: 12,544. The FFN: norm and
  // fc1 inputs 4,096, GeLU and fc2 inputs 16 x 256 x 4 = 16,384: 20,480.
  CHECK(layer_activation_bytes(tiny_mla(), shard(1, 16), 0, ActivationOptions{}) == Approx(33024));
}

TEST_CASE("the DeepSeek-V3 preset counts to the technical report's 671B parameters, and its MTP module's on top",
          "[model][mla]") {
  ModelSpec m = load_model((kRoot / "workloads/models/deepseek-v3.yaml").string());
  REQUIRE(m.mtp_layers == 1);
  // The MTP module: one more MoE layer, 187,105,280 + 16,384 norms + 257 x 44,040,192 experts + 1,835,008
  // router, and its projection 2 x 7,168 x 7,168 = 102,760,448 with three norms of 7,168:
  // 11,610,067,968 (the report's 14B also counts the module's own copies of the embedding and output head,
  // 2 x 926,679,040, which Megatron-Core shares with the model).
  CHECK(count_params(m).total() == 671026404352LL + 11610067968LL);
  m.mtp_layers = 0;
  const ParamCount p = count_params(m);
  // Per layer MLA 187,105,280 (the preset's header) and norms 2 x 7,168 + 1,536 + 512; 3 dense FFNs of
  // 3 x 7,168 x 18,432 = 396,361,728; 58 MoE layers of 257 experts x 44,040,192 + router 1,835,008;
  // embedding and output 2 x 129,280 x 7,168 = 1,853,358,080; final norm 7,168: 671,026,404,352
  // (DeepSeek-AI 2024, arXiv 2412.19437, Sec. 4.2: 671B total, the MTP module's 14B apart).
  CHECK(p.attention == 61LL * 187105280);
  CHECK(p.total() == 671026404352LL);
}

TEST_CASE("selective recompute of mla_up_proj re-runs the latent norms, up-projections and rotary kernels and keeps "
          "only the latents",
          "[model][mla][memory]") {
  RecomputeModules modules;
  modules.core_attn = false;
  modules.mla_up_proj = true;
  CHECK(redone_attention(tiny_mla(), modules) == std::vector<std::string>{"q_norm.fwd", "kv_norm.fwd", "q_up_proj.fwd",
                                                                         "kv_up_proj.fwd", "mla_rope_q.fwd",
                                                                         "mla_rope_kv.fwd"});
  // Kept of the attention: norm input 2,048; down-projections' input 2,048; latents and rotary key head
  // 16 x (48 + 4) x 2 = 1,664; output projection input 1,024; log-sum-exp 256: 7,040. The FFN's 20,480.
  ActivationOptions opt;
  opt.recompute = Recompute::kSelective;
  opt.modules = modules;
  CHECK(layer_activation_bytes(tiny_mla(), shard(1, 16), 0, opt) == Approx(27520));
}

TEST_CASE("selective recompute of layernorm re-runs MLA's unfused input norm and drops its output", "[model][mla][memory]") {
  RecomputeModules modules;
  modules.core_attn = false;
  modules.layernorm = true;
  CHECK(redone_attention(tiny_mla(), modules) == std::vector<std::string>{"attn_norm.fwd"});
  // Standard attention fuses its input norm into the QKV GEMM's module: nothing to recompute there.
  CHECK(redone_attention(gpt_style(1, 64, 4, 100), modules).empty());
  // The 33,024 bytes of the layer (test above) less the down-projections' one 2,048-byte input.
  ActivationOptions opt;
  opt.recompute = Recompute::kSelective;
  opt.modules = modules;
  CHECK(layer_activation_bytes(tiny_mla(), shard(1, 16), 0, opt) == Approx(33024 - 2048));
}

TEST_CASE("MLA without query compression saves q_proj's input once, the tensor the down-projection reads",
          "[model][mla][memory]") {
  ModelSpec m = tiny_mla();
  m.mla.q_lora_rank = 0;
  // As the tiny layer's 33,024 bytes without the query latent's norm input and output 16 x 32 x 2 x 2 =
  // 2,048, with the 16-bit norm output (2,048) saved once for kv_down_proj and q_proj together.
  CHECK(layer_activation_bytes(m, shard(1, 16), 0, ActivationOptions{}) == Approx(33024 - 2048));
}
