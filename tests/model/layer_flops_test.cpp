#include <catch2/catch.hpp>
#include <string>
#include <tuple>

#include "sim/model/attention_ops.hpp"
#include "sim/model/kernel_builders.hpp"
#include "sim/model/mlp_ops.hpp"
#include "tests/model/model_fixtures.hpp"

using namespace trainsim;
using trainsim::test::shard;
using trainsim::test::tiny_gpt;

namespace {
std::vector<Kernel> gpt_layer_forward(const ModelSpec& m, const Shard& sh) {
  std::vector<Kernel> k = attention_forward(m, sh);
  append(k, mlp_forward(m, sh));
  return k;
}
Kernel flops_kernel(const std::vector<Kernel>& ks, const std::string& name) { return trainsim::test::find_kernel(ks, name); }
}  // namespace

// Tiny GPT layer: b=2, s=32, h=64 (a=4, d=16, ffn=256).
// Narayanan SC'21 per-layer forward: 24·b·s·h² + 4·b·s²·h
//   = 24·2·32·4096 + 4·2·1024·64 = 6,291,456 + 524,288 = 6,815,744 FLOP.
TEST_CASE("a GPT layer's forward GEMMs plus non-causal attention equal 24bsh^2 + 4bs^2h", "[model]") {
  const ModelSpec m = tiny_gpt();
  const Shard sh = shard(2, 32);
  const std::vector<Kernel> k = gpt_layer_forward(m, sh);
  const double model_count = total_flops(k, KernelClass::kGemm) + core_attention_model_flops(m, sh);
  CHECK(model_count == 6815744.0);
  // The individual terms: QKV 6bsh² = 1,572,864; projection 2bsh² = 524,288; MLP 16bsh² = 4,194,304.
  CHECK(flops_kernel(k, "qkv_proj.fwd").flops == 1572864.0);
  CHECK(flops_kernel(k, "out_proj.fwd").flops == 524288.0);
  CHECK(flops_kernel(k, "mlp_fc1.fwd").flops + flops_kernel(k, "mlp_fc2.fwd").flops == 4194304.0);
  CHECK(core_attention_model_flops(m, sh) == 524288.0);
}

TEST_CASE("causal masking halves the executed core-attention FLOPs", "[model]") {
  const ModelSpec m = tiny_gpt();
  const Shard sh = shard(2, 32);
  // 4bs²h / 2 = 524,288 / 2 = 262,144 FLOP executed.
  CHECK(flops_kernel(attention_forward(m, sh), "core_attention.fwd").flops == 262144.0);
}

TEST_CASE("executed forward FLOPs differ from the model count only by causal halving and elementwise work",
          "[model]") {
  const ModelSpec m = tiny_gpt();
  const Shard sh = shard(2, 32);
  const std::vector<Kernel> k = gpt_layer_forward(m, sh);
  double elementwise = 0;
  for (const Kernel& x : k) {
    if (x.cls == KernelClass::kElementwise) {
      CHECK(x.flops > 0);
      elementwise += x.flops;
    }
  }
  // 24bsh² + 4bs²h/2 = 6,291,456 + 262,144 = 6,553,600 FLOP of GEMM and fused attention.
  CHECK(total_flops(k) - elementwise == 6553600.0);
}

TEST_CASE("under context parallelism each device's queries attend its s rows against the whole context",
          "[model]") {
  const ModelSpec m = tiny_gpt();
  Shard sh = shard(2, 32);
  sh.cp = 4;
  sh.seq = 8;  // 32 / 4
  // 4·b·s_local·context·h = 4·2·8·32·64 = 131,072 = a quarter of the cp=1 count 524,288.
  CHECK(core_attention_model_flops(m, sh) == 131072.0);
  CHECK(flops_kernel(attention_forward(m, sh), "qkv_proj.fwd").flops == 1572864.0 / 4);
}

TEST_CASE("grouped-query attention shrinks K and V to kv_heads * head_dim columns", "[model]") {
  ModelSpec m = trainsim::test::gpt_style(1, 64, 8, 100);  // d = 8
  m.kv_heads = 2;
  const Shard sh = shard(1, 16);
  const Kernel qkv = flops_kernel(attention_forward(m, sh), "qkv_proj.fwd");
  // n = (8 + 2·2)·8 = 96 columns; FLOP = 2·16·96·64 = 196,608 (MHA would be 2·16·192·64).
  CHECK(qkv.gemm.n == 96);
  CHECK(qkv.flops == 196608.0);
}

TEST_CASE("QK-norm adds a norm over Q and K after the QKV GEMM and its backward before the QKV dgrad",
          "[model]") {
  ModelSpec m = trainsim::test::gpt_style(1, 64, 8, 100);  // d = 8, LayerNorm
  m.kv_heads = 2;
  m.qk_norm = true;
  const Shard sh = shard(1, 16);
  // Normalised: Q and K, 16 tokens x (8 + 2) heads x 8 = 1,280 elements of 2 bytes.
  // Forward reads x, writes y: 1,280 x 2 x 2 = 5,120 B, 8 FLOP per element (LayerNorm) = 10,240.
  const std::vector<Kernel> fwd = attention_forward(m, sh);
  const Kernel norm = flops_kernel(fwd, "qk_norm.fwd");
  CHECK(norm.bytes == 5120.0);
  CHECK(norm.flops == 10240.0);
  // Backward reads x and dy, writes dx (no residual gradient joins): 1,280 x 3 x 2 = 7,680 B, 16 FLOP each.
  const std::vector<Kernel> bwd = attention_backward(m, sh);
  const Kernel grad = flops_kernel(bwd, "qk_norm.dgrad");
  CHECK(grad.bytes == 7680.0);
  CHECK(grad.flops == 20480.0);
  // Order: QKV GEMM, QK-norm, RoPE forward; RoPE, QK-norm backward before the QKV input gradient.
  auto at = [](const std::vector<Kernel>& ks, const std::string& name) {
    for (size_t i = 0; i < ks.size(); ++i)
      if (ks[i].name == name) return static_cast<int>(i);
    return -1;
  };
  CHECK(at(fwd, "qkv_proj.fwd") + 1 == at(fwd, "qk_norm.fwd"));
  CHECK(at(fwd, "qk_norm.fwd") + 1 == at(fwd, "rope.fwd"));
  CHECK(at(bwd, "rope.dgrad") + 1 == at(bwd, "qk_norm.dgrad"));
  CHECK(at(bwd, "qk_norm.dgrad") < at(bwd, "qkv_proj.dgrad"));
  m.qk_norm = false;
  CHECK(at(attention_forward(m, sh), "qk_norm.fwd") == -1);
  CHECK(at(attention_backward(m, sh), "qk_norm.dgrad") == -1);
}

TEST_CASE("a gated FFN runs three h x ffn matrices where GeLU runs two", "[model]") {
  ModelSpec m = tiny_gpt();
  const Shard sh = shard(2, 32);
  const std::vector<Kernel> plain = mlp_forward(m, sh);
  m.gated_ffn = true;
  const std::vector<Kernel> gated = mlp_forward(m, sh);
  // 2·b·s·h·f per matrix = 2·64·64·256 = 2,097,152; GeLU 2 matrices, SwiGLU 3.
  CHECK(total_flops(plain, KernelClass::kGemm) == 2 * 2097152.0);
  CHECK(total_flops(gated, KernelClass::kGemm) == 3 * 2097152.0);
  CHECK(flops_kernel(gated, "mlp_fc1.fwd").gemm.n == 512);  // gate and up fused: 2·ffn
}

TEST_CASE("tensor parallelism divides every per-device GEMM and attention FLOP by t exactly", "[model]") {
  const ModelSpec m = tiny_gpt();
  const std::vector<Kernel> one = gpt_layer_forward(m, shard(2, 32, 1));
  const std::vector<Kernel> four = gpt_layer_forward(m, shard(2, 32, 4));
  CHECK(4 * total_flops(four, KernelClass::kGemm) == total_flops(one, KernelClass::kGemm));
  CHECK(4 * total_flops(four, KernelClass::kAttention) == total_flops(one, KernelClass::kAttention));
  CHECK(flops_kernel(four, "qkv_proj.fwd").gemm.n == 3 * 64 / 4);  // column-parallel: n / t
  CHECK(flops_kernel(four, "out_proj.fwd").gemm.k == 64 / 4);      // row-parallel: k / t
}

TEST_CASE("sequence parallelism splits norms and residual adds over t but not the GEMMs", "[model]") {
  const ModelSpec m = tiny_gpt();
  const std::vector<Kernel> tp = gpt_layer_forward(m, shard(2, 32, 4, false));
  const std::vector<Kernel> sp = gpt_layer_forward(m, shard(2, 32, 4, true));
  CHECK(flops_kernel(sp, "attn_norm.fwd").bytes * 4 == flops_kernel(tp, "attn_norm.fwd").bytes);
  CHECK(flops_kernel(sp, "mlp_residual.fwd").bytes * 4 == flops_kernel(tp, "mlp_residual.fwd").bytes);
  CHECK(total_flops(sp, KernelClass::kGemm) == total_flops(tp, KernelClass::kGemm));
}

TEST_CASE("backward GEMMs do twice the forward GEMM FLOPs, half as input and half as weight gradients",
          "[model]") {
  ModelSpec m = tiny_gpt();
  m.gated_ffn = true;
  const Shard sh = shard(2, 32, 2);
  std::vector<Kernel> fwd = attention_forward(m, sh);
  append(fwd, mlp_forward(m, sh));
  std::vector<Kernel> bwd = mlp_backward(m, sh);
  append(bwd, attention_backward(m, sh));
  double dgrad = 0, wgrad = 0;
  for (const Kernel& k : bwd) {
    if (k.cls != KernelClass::kGemm) continue;
    const bool is_w = k.name.find(".wgrad") != std::string::npos;
    CHECK(is_w == k.weight_grad);
    (is_w ? wgrad : dgrad) += k.flops;
  }
  const double f = total_flops(fwd, KernelClass::kGemm);
  CHECK(dgrad == f);
  CHECK(wgrad == f);
}

TEST_CASE("fused attention backward executes 2.5 times its forward FLOPs", "[model]") {
  const ModelSpec m = tiny_gpt();
  const Shard sh = shard(2, 32);
  // FlashAttention-2 Sec. 4.1: 5 backward matmuls vs 2 forward → 2.5 × 262,144 = 655,360.
  CHECK(flops_kernel(attention_backward(m, sh), "core_attention.dgrad").flops == 655360.0);
}

TEST_CASE("hidden dropout writes a 1-byte mask in each residual add and adds its backward kernel", "[model]") {
  // Tiny GPT layer, b=2, s=32, h=64, bf16: a residual add over 2·32·64 = 4096 elements reads two
  // tensors and writes one: 3 · 4096 · 2 B = 24,576 B; with dropout also its mask, 4096 B more.
  // The backward of dropout reads the gradient (8192 B) and the mask (4096 B), writes 8192 B.
  const ModelSpec m = tiny_gpt();
  Shard sh = shard(2, 32);
  CHECK(flops_kernel(gpt_layer_forward(m, sh), "attn_residual.fwd").bytes == 24576.0);
  sh.hidden_dropout = 0.1;
  const std::vector<Kernel> fwd = gpt_layer_forward(m, sh);
  CHECK(flops_kernel(fwd, "attn_residual.fwd").bytes == 28672.0);
  CHECK(flops_kernel(fwd, "mlp_residual.fwd").bytes == 28672.0);
  std::vector<Kernel> bwd = attention_backward(m, sh);
  append(bwd, mlp_backward(m, sh));
  CHECK(flops_kernel(bwd, "attn_dropout.dgrad").bytes == 20480.0);
  CHECK(flops_kernel(bwd, "mlp_dropout.dgrad").bytes == 20480.0);
  CHECK(bwd.front().name == "attn_dropout.dgrad");  // the gradient enters the block through it
  sh.hidden_dropout = 0;
  CHECK(attention_backward(m, sh).front().name == "out_proj.dgrad");
}

TEST_CASE("a block's input gradient is its norm's plus the residual's, summed by a kernel of its own", "[model]") {
  // Tiny GPT layer, b=2, s=32, h=64, bf16: the norm's backward reads x and dy and writes dx,
  // 3 x 4096 x 2 B = 24,576 B; autograd then adds the residual path's gradient to it, reading both and
  // writing the sum: 24,576 B more and 4096 FLOP, as the block's last kernel.
  const ModelSpec m = tiny_gpt();
  const Shard sh = shard(2, 32);
  const std::vector<Kernel> attn = attention_backward(m, sh);
  const std::vector<Kernel> mlp = mlp_backward(m, sh);
  CHECK(flops_kernel(attn, "attn_norm.dgrad").bytes == 24576.0);
  CHECK(flops_kernel(mlp, "mlp_norm.dgrad").bytes == 24576.0);
  for (const auto& [ks, norm, add] : {std::tuple{attn, "attn_norm.dgrad", "attn_residual.dgrad"},
                                      std::tuple{mlp, "mlp_norm.dgrad", "mlp_residual.dgrad"}}) {
    REQUIRE(ks.size() >= 2);
    CHECK(ks.back().name == add);
    CHECK(ks[ks.size() - 2].name == norm);
    CHECK(ks.back().bytes == 24576.0);
    CHECK(ks.back().flops == 4096.0);
  }
}

TEST_CASE("attention dropout draws one random number per computed score, forward and backward", "[model]") {
  // b=2, 4 heads, s = context = 32, causal: 0.5 · 2 · 4 · 32 · 32 = 4096 scores computed.
  const ModelSpec m = tiny_gpt();
  Shard sh = shard(2, 32);
  CHECK(core_attention_kernel(m, sh, false).random_elements == 0);
  sh.attention_dropout = 0.1;
  CHECK(core_attention_kernel(m, sh, false).random_elements == 4096.0);
  CHECK(core_attention_kernel(m, sh, true).random_elements == 4096.0);
  // Unfused attention runs dropout as its own kernel over the 2·4·32·32 = 8192 scores only with it.
  sh.flash_attention = false;
  const auto names = [&] {
    std::string all;
    for (const Kernel& k : attention_forward(m, sh)) all += k.name + " ";
    return all;
  };
  CHECK(names().find("attn_dropout.fwd") != std::string::npos);
  sh.attention_dropout = 0;
  CHECK(names().find("attn_dropout.fwd") == std::string::npos);
}

TEST_CASE("fused causal attention's queries attend half the context on average", "[model]") {
  const ModelSpec m = tiny_gpt();
  Shard sh = shard(2, 32);
  CHECK(core_attention_kernel(m, sh, false).attention_keys == 16.0);
  CHECK(core_attention_kernel(m, sh, true).attention_keys == 16.0);
  sh.context = 128;  // context parallelism: s rows against the whole context
  CHECK(core_attention_kernel(m, sh, false).attention_keys == 64.0);
}

TEST_CASE("a sliding window limits fused attention to the key blocks a query block spans", "[model][window]") {
  // b = 1, s = 1024, h = 64 (a = 4, d = 16): model FLOPs 4·1·1024·1024·16·4 = 268,435,456; causal keys
  // per query 512. A window of 128 keys (127 back) spans a query block's own 128-key block and the one
  // before, except the first of the 8 blocks, which has none before it: (1 + 7 x 2) / 8 = 1.875 blocks,
  // 240 keys. 130 keys (129 back) reach a third block: (1 + 2 + 6 x 3) / 8 = 2.625 blocks, 336 keys.
  // A window wider than the causal half changes nothing.
  const ModelSpec m = tiny_gpt();
  Shard sh = shard(1, 1024);
  const double model = core_attention_model_flops(m, sh);
  CHECK(model == 268435456.0);
  auto fused = [&](int64_t window, bool backward) {
    sh.window = window;
    return core_attention_kernel(m, sh, backward);
  };
  CHECK(fused(0, false).attention_keys == 512.0);
  CHECK(fused(128, false).attention_keys == 240.0);
  CHECK(fused(128, false).flops == model * 240 / 1024);
  CHECK(fused(128, true).flops == 2.5 * model * 240 / 1024);
  CHECK(fused(129, false).attention_keys == 240.0);
  CHECK(fused(130, false).attention_keys == 336.0);
  // The longest query tile spans the whole window: 256 and 384 keys, the context without a window.
  CHECK(fused(128, false).attention_max_keys == 256.0);
  CHECK(fused(130, false).attention_max_keys == 384.0);
  CHECK(fused(0, false).attention_max_keys == 1024.0);
  CHECK(fused(1000, false).flops == fused(0, false).flops);
  CHECK(core_attention_model_flops(m, sh) == model);  // the model count (MFU) keeps full attention
}
