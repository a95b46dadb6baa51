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
