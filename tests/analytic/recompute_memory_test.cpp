// A stage under recompute holds, besides its in-flight checkpoints, what one recomputed layer's rerun
// forward saves while that layer's backward runs (recompute_transient_bytes, whose Table 2 cases are in
// activation_memory_test.cpp). Worked by hand from the tiny GPT's tensors.
#include <catch2/catch.hpp>

#include "sim/analytic/device_memory.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

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
