// What a recomputed layer holds again while its backward runs: its rerun forward saves what the layer
// would keep without recompute, for one layer of one micro-batch at a time. Worked by hand from
// Korthikanti et al. 2022 Table 2 and from the tiny GPT's tensors.
#include <catch2/catch.hpp>

#include "sim/analytic/activation_memory.hpp"
#include "sim/analytic/device_memory.hpp"
#include "tests/model/model_fixtures.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;
using trainsim::test::shard;

namespace {

// Table 2's setting: the paper keeps the s x s softmax and the dropout masks.
ActivationOptions table2(Recompute r) {
  ActivationOptions o;
  o.recompute = r;
  o.flash_attention = false;
  o.dropout = true;
  return o;
}

}  // namespace

TEST_CASE("a recomputed layer holds again what recompute dropped: Table 2's rows apart", "[analytic][memory]") {
  const ModelSpec m = trainsim::test::tiny_gpt();  // s = 32, b = 2, h = 64, a = 4, t = 4: sbh = 4,096
  // Full recompute with TP+SP: (sbh/t)(34 + 5as/h) - 2sbh/t = 45,056 - 2,048 = 43,008.
  CHECK(recompute_transient_bytes(m, shard(2, 32, 4, true), 0, table2(Recompute::kFull)) == 43008.0);
  // Full recompute with TP: sbh(10 + 24/t + 5as/(ht)) - 2sbh = 75,776 - 8,192 = 67,584.
  CHECK(recompute_transient_bytes(m, shard(2, 32, 4), 0, table2(Recompute::kFull)) == 67584.0);
  // Selective (core attention) with TP: the s x s term alone, 5as/(ht)·sbh = 2.5 · 4,096 = 10,240.
  CHECK(recompute_transient_bytes(m, shard(2, 32, 4), 0, table2(Recompute::kSelective)) == 10240.0);
  CHECK(recompute_transient_bytes(m, shard(2, 32, 4), 0, table2(Recompute::kNone)) == 0.0);
}

TEST_CASE("a stage under full recompute holds the checkpoints of its in-flight units and one whole layer",
          "[analytic][memory]") {
  // 4 layers, hidden 256, 4 heads, pp 2: stage 0 holds 2 layers and, under 1F1B with 4 micro-batches,
  // min(p - 0, m) = 2 units. One micro-batch of 128 tokens, bf16, flash attention, no dropout.
  RunSpec run = test::gpt_run(test::gpt_model(4, 256, 4, 1000), 1, 2, 2, 128, 8, 1);
  const DeviceMemory kept = stage_memory(run)[0];
  REQUIRE(kept.peak_in_flight == 2);
  CHECK(kept.recompute_transient == 0.0);
  run.strategy.recompute = Recompute::kFull;
  const DeviceMemory full = stage_memory(run)[0];
  // A whole layer K: 32·sbh (34 less the two dropout masks) + the 4-byte log-sum-exp per token and head
  // = 32·128·256 + 128·4·4 = 1,050,624 B; its checkpoint R = s·h·2 = 65,536 B.
  const double K = 1050624, R = 65536;
  CHECK(full.recompute_transient == K - R);
  // Without recompute 2 units x 2 layers x K; with it 2 x 2 x R + (K - R): 3(K - R) apart (same stage extras).
  CHECK(kept.activations - full.activations == Approx(3 * (K - R)));
  // With recompute_layers 1 the stage recomputes its first layer only: still one whole layer held again.
  run.strategy.recompute_layers = 1;
  CHECK(stage_memory(run)[0].recompute_transient == K - R);
}
