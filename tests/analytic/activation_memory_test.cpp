#include <catch2/catch.hpp>

#include "sim/analytic/activation_memory.hpp"
#include "tests/model/model_fixtures.hpp"

using namespace trainsim;
using trainsim::test::shard;

// Tiny GPT layer for every row: s=32, b=2, h=64, a=4, t=4 → sbh = 4,096, as/h = 2.
namespace {
constexpr double s = 32, b = 2, h = 64, a = 4, t = 4;
ActivationOptions korthikanti_setting(Recompute r) {
  ActivationOptions o;
  o.recompute = r;
  o.flash_attention = false;  // the paper keeps the s×s softmax
  o.dropout = true;           // and the dropout masks
  return o;
}
}  // namespace

TEST_CASE("Korthikanti Table 2 rows evaluate to their hand-worked values", "[analytic]") {
  // none: 4096·(34 + 5·2) = 180,224
  CHECK(korthikanti_layer_bytes(KorthikantiCase::kNoParallelism, s, b, h, a, t) == 180224.0);
  // TP: 4096·(10 + 24/4 + 5·2/4) = 4096·18.5 = 75,776
  CHECK(korthikanti_layer_bytes(KorthikantiCase::kTensor, s, b, h, a, t) == 75776.0);
  // TP+SP: 4096/4·44 = 45,056
  CHECK(korthikanti_layer_bytes(KorthikantiCase::kTensorSequence, s, b, h, a, t) == 45056.0);
  // TP+selective: 4096·16 = 65,536
  CHECK(korthikanti_layer_bytes(KorthikantiCase::kTensorSelective, s, b, h, a, t) == 65536.0);
  // TP+SP+selective: 34·4096/4 = 34,816
  CHECK(korthikanti_layer_bytes(KorthikantiCase::kTensorSequenceSelective, s, b, h, a, t) == 34816.0);
  // full recompute: 2·4096 = 8,192; with SP 2,048
  CHECK(korthikanti_layer_bytes(KorthikantiCase::kFullRecompute, s, b, h, a, t) == 8192.0);
  CHECK(korthikanti_layer_bytes(KorthikantiCase::kFullRecomputeSequence, s, b, h, a, t) == 2048.0);
}

TEST_CASE("the general per-layer count reproduces every Table 2 row for a GPT layer with dropout",
          "[analytic]") {
  const ModelSpec m = trainsim::test::tiny_gpt();  // MHA, ffn = 4h, bf16
  const ActivationOptions none = korthikanti_setting(Recompute::kNone);
  const ActivationOptions sel = korthikanti_setting(Recompute::kSelective);
  const ActivationOptions full = korthikanti_setting(Recompute::kFull);
  CHECK(layer_activation_bytes(m, shard(2, 32, 1), 0, none) == 180224.0);
  CHECK(layer_activation_bytes(m, shard(2, 32, 4), 0, none) == 75776.0);
  CHECK(layer_activation_bytes(m, shard(2, 32, 4, true), 0, none) == 45056.0);
  CHECK(layer_activation_bytes(m, shard(2, 32, 4), 0, sel) == 65536.0);
  CHECK(layer_activation_bytes(m, shard(2, 32, 4, true), 0, sel) == 34816.0);
  CHECK(layer_activation_bytes(m, shard(2, 32, 4), 0, full) == 8192.0);
  CHECK(layer_activation_bytes(m, shard(2, 32, 4, true), 0, full) == 2048.0);
}

TEST_CASE("a recomputed layer holds again what recompute dropped: Table 2's rows apart", "[analytic][memory]") {
  const ModelSpec m = trainsim::test::tiny_gpt();  // s = 32, b = 2, h = 64, a = 4, t = 4: sbh = 4,096
  // Full recompute with TP+SP: (sbh/t)(34 + 5as/h) - 2sbh/t = 45,056 - 2,048 = 43,008.
  CHECK(recompute_transient_bytes(m, shard(2, 32, 4, true), 0, korthikanti_setting(Recompute::kFull)) == 43008.0);
  // Full recompute with TP: sbh(10 + 24/t + 5as/(ht)) - 2sbh = 75,776 - 8,192 = 67,584.
  CHECK(recompute_transient_bytes(m, shard(2, 32, 4), 0, korthikanti_setting(Recompute::kFull)) == 67584.0);
  // Selective (core attention) with TP: the s x s term alone, 5as/(ht)·sbh = 2.5 · 4,096 = 10,240.
  CHECK(recompute_transient_bytes(m, shard(2, 32, 4), 0, korthikanti_setting(Recompute::kSelective)) == 10240.0);
  CHECK(recompute_transient_bytes(m, shard(2, 32, 4), 0, korthikanti_setting(Recompute::kNone)) == 0.0);
}

TEST_CASE("flash attention keeps no s x s tensor, only a 4-byte log-sum-exp per row and head",
          "[analytic]") {
  const ModelSpec m = trainsim::test::tiny_gpt();
  ActivationOptions o;  // flash, no dropout, no recompute
  // No dropout: 34 − 2 masks = 32·sbh = 131,072; log-sum-exp b·s·a·4 = 64·4·4 = 1,024 → 132,096.
  CHECK(layer_activation_bytes(m, shard(2, 32), 0, o) == 132096.0);
}

TEST_CASE("GQA stores K and V for kv_heads only and a gated FFN stores both FFN halves", "[analytic]") {
  ModelSpec m = trainsim::test::tiny_gpt();  // d = 16
  ActivationOptions o;
  o.recompute = Recompute::kSelective;  // no s×s, no log-sum-exp
  const double base = layer_activation_bytes(m, shard(2, 32), 0, o);  // 32·sbh = 131,072
  CHECK(base == 131072.0);
  m.kv_heads = 1;  // K, V shrink from 2·64·64·2 to 2·64·16·2 bytes: −12,288
  CHECK(layer_activation_bytes(m, shard(2, 32), 0, o) == 131072.0 - 12288.0);
  m.kv_heads = 4;
  m.gated_ffn = true;  // activation input doubles: + T·ffn·2 = 64·256·2 = 32,768
  CHECK(layer_activation_bytes(m, shard(2, 32), 0, o) == 131072.0 + 32768.0);
}

TEST_CASE("QK-norm keeps its input, Q and K before the norm", "[analytic]") {
  ModelSpec m = trainsim::test::tiny_gpt();  // a = 4, d = 16
  ActivationOptions o;
  o.recompute = Recompute::kSelective;
  const double base = layer_activation_bytes(m, shard(2, 32), 0, o);
  m.qk_norm = true;  // T·(a + kv)·d·2 B = 64·(4 + 4)·16·2 = 16,384
  CHECK(layer_activation_bytes(m, shard(2, 32), 0, o) == base + 16384.0);
  m.kv_heads = 1;    // GQA: 64·(4 + 1)·16·2 = 10,240 on top of the smaller K and V
  const double gqa = layer_activation_bytes(m, shard(2, 32), 0, o);
  m.qk_norm = false;
  CHECK(gqa - layer_activation_bytes(m, shard(2, 32), 0, o) == 10240.0);
}

TEST_CASE("the last stage keeps 4sbh/t(1 + V/h) for the output layer under SP", "[analytic]") {
  const ModelSpec m = trainsim::test::tiny_gpt();  // V = 100
  // 4·sbh/t·(1 + V/h) = 4·4096/4·(1 + 100/64) = 4,096 + 6,400 = 10,496 bytes.
  CHECK(last_stage_activation_bytes(m, shard(2, 32, 4, true)) == 10496.0);
  // A fused cross entropy keeps its bf16 gradient in place of the 1,600 local logits (2 bytes each)
  // instead of their fp32 softmax: 4,096 + 3,200 = 7,296 bytes.
  Shard fused = shard(2, 32, 4, true);
  fused.fused_cross_entropy = true;
  CHECK(last_stage_activation_bytes(m, fused) == 7296.0);
}

TEST_CASE("the first stage keeps token ids and, with dropout, the embedding mask", "[analytic]") {
  const ModelSpec m = trainsim::test::tiny_gpt();
  ActivationOptions o;
  CHECK(first_stage_activation_bytes(m, shard(2, 32, 4, true), o) == 64 * 8.0);  // 8-byte ids
  o.dropout = true;  // + sbh/t mask bytes = 4096/4 = 1,024
  CHECK(first_stage_activation_bytes(m, shard(2, 32, 4, true), o) == 512.0 + 1024.0);
}

namespace {
// The tiny GPT with 4 experts of width 32 (top 2) in every layer.
ModelSpec tiny_moe_layers() {
  ModelSpec m = trainsim::test::tiny_gpt();
  m.moe.experts = 4;
  m.moe.top_k = 2;
  m.moe.expert_ffn_hidden = 32;
  return m;
}
}  // namespace

TEST_CASE("an MoE layer stores the routed rows of its local experts", "[analytic]") {
  const ModelSpec m = tiny_moe_layers();
  ActivationOptions o;
  o.recompute = Recompute::kSelective;
  // Attention part (selective, no dropout): norm+QKV input 2·64·64·2 = 16,384; QKV 64·192·2 = 24,576;
  //   projection input 64·64·2 = 8,192 → 49,152.
  // MoE part: norm+router input 16,384; probabilities 64·4·4 = 1,024; routed rows 64·2 = 128:
  //   expert input+output 2·128·64·2 = 32,768; act+fc2 input 2·128·32·2 = 16,384 → 66,560.
  CHECK(layer_activation_bytes(m, shard(2, 32), 0, o) == 49152.0 + 66560.0);
}

TEST_CASE("each selective recompute module drops what it re-runs", "[analytic][recompute]") {
  // The MoE layer of the case above: 49,152 (attention) + 66,560 (MoE part).
  const ModelSpec m = tiny_moe_layers();
  ActivationOptions o;
  o.recompute = Recompute::kSelective;
  o.modules.layernorm = true;  // the router input (norm output) 64·64·2 = 8,192 goes
  CHECK(layer_activation_bytes(m, shard(2, 32), 0, o) == 49152.0 + 66560.0 - 8192.0);
  o.modules.moe_act = true;    // and the expert fc2 input 128·32·2 = 8,192
  CHECK(layer_activation_bytes(m, shard(2, 32), 0, o) == 49152.0 + 66560.0 - 16384.0);
  o.recompute = Recompute::kNone;  // modules apply to selective recompute only: + log-sum-exp 64·4·4
  CHECK(layer_activation_bytes(m, shard(2, 32), 0, o) == 49152.0 + 1024.0 + 66560.0);
  // A dense layer with the mlp module keeps only the MLP's input 64·64·2 = 8,192 of its MLP part.
  ActivationOptions dense;
  dense.recompute = Recompute::kSelective;
  dense.modules.mlp = true;
  CHECK(layer_activation_bytes(trainsim::test::tiny_gpt(), shard(2, 32), 0, dense) == 49152.0 + 8192.0);
}
