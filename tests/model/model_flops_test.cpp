#include <catch2/catch.hpp>
#include <cmath>

#include "sim/model/model_flops.hpp"
#include "tests/model/model_fixtures.hpp"

using namespace trainsim;

TEST_CASE("model FLOPs of GPT-3 175B equal Narayanan's 72Bslh^2(1 + s/6h + V/12lh) to 1e-9", "[model]") {
  const ModelSpec m = trainsim::test::gpt3_175b();
  const double general = model_flops(m, 1536, 2048);
  const double megatron = megatron_flops(m, 1536, 2048, false);
  CHECK(std::abs(general - megatron) / megatron < 1e-9);
  // Magnitude: B·s·l = 1536·2048·96 = 301,989,888; ×h² (150,994,944) ≈ 4.55979e16; ×72 ≈ 3.28305e18;
  // × (1 + 2048/73728 + 51200/(12·96·12288)) = × 1.0313947 ≈ 3.3861e18 FLOP per iteration.
  CHECK(megatron == Approx(3.3861e18).epsilon(1e-4));
}

TEST_CASE("full recompute counts four layer forwards and three logits forwards (96-form)", "[model]") {
  const ModelSpec m = trainsim::test::gpt3_175b();
  const double B = 8, s = 2048;
  const double logits_fwd = 2 * B * s * m.hidden * m.vocab;
  const double layers_fwd = forward_model_flops(m, 8, 2048) - logits_fwd;
  const double expected = 4 * layers_fwd + 3 * logits_fwd;
  CHECK(megatron_flops(m, 8, 2048, true) == Approx(expected).epsilon(1e-12));
}

TEST_CASE("MoE model FLOPs count the router and top_k + shared experts, not all experts", "[model]") {
  ModelSpec m = trainsim::test::gpt_style(1, 64, 4, 100);
  m.moe.experts = 8;
  m.moe.top_k = 2;
  m.moe.shared_experts = 1;
  m.moe.expert_ffn_hidden = 128;
  // B·s = 1·16 tokens. Attention: QKV 2·16·64·192 + core 4·16·16·64 + proj 2·16·64·64
  //   = 393,216 + 65,536 + 131,072 = 589,824. Router 2·16·64·8 = 16,384.
  //   Experts (2 + 1)·2 matrices·2·16·64·128 = 1,572,864. Layer = 2,179,072.
  CHECK(layer_forward_model_flops(m, 0, 1, 16) == 2179072.0);
}

TEST_CASE("Megatron-LM's count of a GPT-style model is Korthikanti's with causal attention", "[model]") {
  // MHA, ffn 4h, two FFN matrices: per token and layer 6·4h² (projections) + 6·h·s (causal scores
  // and values) + 6·8h² (FFN) = 72h² + 6hs, plus 6hV for the logits: 72·B·s·l·h²·(1 + s/(12h) + V/(12lh)).
  const ModelSpec m = trainsim::test::gpt3_175b();
  const double B = 1536, s = 2048, l = m.layers, h = m.hidden, V = m.vocab;
  const double expected = 72 * B * s * l * h * h * (1 + s / (12 * h) + V / (12 * l * h));
  CHECK(megatron_lm_flops(m, 1536, 2048) == Approx(expected).epsilon(1e-12));
}

TEST_CASE("Megatron-LM's count of Qwen3-30B-A3B: 23,006,281,728 FLOP per token at seq 4096", "[model]") {
  // 48 layers, h 2048, 32 query heads and 4 KV heads of 128 (q 4096, k 512), 128 SwiGLU experts of 768,
  // top-8, vocab 151936. Per token:
  //   experts      6·2048·768·3·8·48        = 10,871,635,968
  //   projections  6·48·(2048·(4096 + 1024) + 4096·2048) = 5,435,817,984
  //   attention    6·48·4096·4096           =  4,831,838,208
  //   logits       6·2048·151936             =  1,866,989,568   total 23,006,281,728.
  // Megatron-Bridge's verification card for this model pairs 199.12 TFLOP/s with 8654.602 tokens/s
  // per GPU: 2.3007e10 per token, the same to 4 digits.
  ModelSpec m = trainsim::test::gpt_style(48, 2048, 32, 151936);
  m.kv_heads = 4;
  m.head_dim = 128;
  m.gated_ffn = true;
  m.moe.experts = 128;
  m.moe.top_k = 8;
  m.moe.expert_ffn_hidden = 768;
  CHECK(megatron_lm_flops(m, 3, 4096) == 3 * 4096 * 23006281728.0);
}
