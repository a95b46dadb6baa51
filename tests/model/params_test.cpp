#include <catch2/catch.hpp>

#include "sim/model/params.hpp"
#include "tests/model/model_fixtures.hpp"

using namespace trainsim;

TEST_CASE("GPT-3 175B has 12lh^2 matrix parameters plus norms and one tied vocabulary table", "[model]") {
  const ParamCount p = count_params(trainsim::test::gpt3_175b());
  // Per layer 12h² + 2 LayerNorms·2h: 12·150,994,944 + 4·12,288 = 1,811,988,480; ×96 layers
  // = 173,950,894,080; + final norm 24,576 + V·h = 51,200·12,288 = 629,145,600 (tied: once)
  // = 174,580,064,256 (175B in Brown et al. also counts biases and the 2048×h position table).
  CHECK(p.total() == 174580064256LL);
  CHECK(p.output == 0);
}

TEST_CASE("Llama-3 8B counts to its published 8,030,261,248 parameters", "[model]") {
  const ParamCount p = count_params(trainsim::test::llama3_8b());
  // attention 4096·(4096 + 2·1024) + 4096·4096 = 41,943,040; SwiGLU 3·4096·14336 = 176,160,768;
  // 2 RMSNorms 8,192 → 218,112,000 per layer × 32 = 6,979,584,000; final norm 4,096;
  // untied embedding + output 2·128,256·4096 = 1,050,673,152. Sum 8,030,261,248.
  CHECK(p.attention == 32LL * 41943040);
  CHECK(p.total() == 8030261248LL);
}

TEST_CASE("a device holds 1/t of the matrices, replicated norms, and the vocabulary table on its end stages",
          "[model]") {
  const ModelSpec m = trainsim::test::llama3_8b();
  const ParamCount full = device_params(m, {0, 1}, false, false, 1, 1);
  const ParamCount half = device_params(m, {0, 1}, false, false, 2, 1);
  CHECK(half.attention * 2 == full.attention);
  CHECK(half.mlp * 2 == full.mlp);
  CHECK(half.norms == full.norms);
  CHECK(half.embedding == 0);
  const ParamCount first = device_params(m, {0}, true, false, 2, 1);
  CHECK(first.embedding == 128256LL / 2 * 4096);
  const ParamCount last = device_params(m, {31}, false, true, 2, 1);
  CHECK(last.output == 128256LL / 2 * 4096);
  CHECK(last.norms == 3 * 4096);  // two layer norms + final norm
}

TEST_CASE("tied embeddings live on both end stages but once on a single stage", "[model]") {
  const ModelSpec m = trainsim::test::gpt_style(2, 64, 4, 100);  // tied
  const ParamCount last = device_params(m, {1}, false, true, 1, 1);
  CHECK(last.output == 100 * 64);
  const ParamCount single = device_params(m, {0, 1}, true, true, 1, 1);
  CHECK(single.embedding == 100 * 64);
  CHECK(single.output == 0);
}

TEST_CASE("routed experts are split over ep and each expert's width over tp", "[model]") {
  ModelSpec m = trainsim::test::gpt_style(1, 64, 4, 100);
  m.moe.experts = 8;
  m.moe.top_k = 2;
  m.moe.expert_ffn_hidden = 128;
  m.moe.shared_experts = 1;
  // All experts: 8·2·64·128 = 131,072; per device with ep=4, tp=2: 2 experts·2·64·64 = 16,384.
  CHECK(count_params(m).moe_experts == 131072);
  const ParamCount d = device_params(m, {0}, false, false, 2, 4);
  CHECK(d.moe_experts == 16384);
  CHECK(d.expert() == 16384);
  CHECK(d.router == 64 * 8);                // replicated
  CHECK(d.moe_shared == 2 * 64 * 128 / 2);  // one shared expert, width split over tp
  // Active per token: top-2 of the 8 routed experts, 131,072·2/8 = 32,768 routed parameters.
  CHECK(active_params(m) == count_params(m).total() - 131072 + 32768);
}
