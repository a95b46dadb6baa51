#include <catch2/catch.hpp>

#include "sim/analytic/comm_volume.hpp"
#include "sim/core/error.hpp"

using namespace trainsim;

TEST_CASE("a ring all-reduce sends 2(n-1)/n of the buffer per member", "[analytic]") {
  CHECK(ring_allreduce_bytes(1000, 4) == Approx(1500));  // 2·3/4·1000
  CHECK(ring_gather_bytes(1000, 4) == Approx(750));      // 3/4·1000
  CHECK(ring_allreduce_bytes(1000, 1) == 0);
}

TEST_CASE("TP moves 4 all-reduces of bsh per layer per micro-batch, 6 with full recompute", "[analytic]") {
  // b=1, s=2048, h=4096, bf16, t=8: b·s·h·2 = 16,777,216 B; × 2·7/8 = 29,360,128 B per call.
  CHECK(tp_bytes_per_call(1, 2048, 4096, 8, 2) == Approx(29360128.0));
  // 32 layers × 4 micro-batches × 4 calls = 512 calls → 15,032,385,536 B.
  CHECK(tp_bytes_per_iteration(1, 2048, 4096, 8, 2, 32, 4, false) == Approx(512 * 29360128.0));
  CHECK(tp_bytes_per_iteration(1, 2048, 4096, 8, 2, 32, 4, true) == Approx(768 * 29360128.0));
  // SP's reduce-scatter + all-gather pair moves the same: 2 × 7/8 × S.
  CHECK(2 * ring_gather_bytes(16777216.0, 8) == Approx(tp_bytes_per_call(1, 2048, 4096, 8, 2)));
}

TEST_CASE("DP moves 2(d-1)/d of the gradients for ZeRO 0-2 and 3(d-1)/d under ZeRO-3", "[analytic]") {
  // Ψ = 1e9 16-bit parameters: G = P = 2e9 bytes, d = 4.
  CHECK(dp_bytes_per_iteration(2e9, 2e9, 4, 0) == Approx(3e9));    // 2·3/4·2e9
  CHECK(dp_bytes_per_iteration(2e9, 2e9, 4, 1) == Approx(3e9));    // RS + AG = 2Ψ-style
  CHECK(dp_bytes_per_iteration(2e9, 2e9, 4, 2) == Approx(3e9));
  CHECK(dp_bytes_per_iteration(2e9, 2e9, 4, 3) == Approx(4.5e9));  // 3·3/4·2e9
  CHECK_THROWS_AS(dp_bytes_per_iteration(2e9, 2e9, 4, 5), StrategyError);
}

TEST_CASE("EP sends (e-1)/e of c*k*b*s*h per all-to-all, four per MoE layer", "[analytic]") {
  // 4096 tokens, h = 2048, top-2, c = 1.25, ep = 8, bf16: 7/8·1.25·2·4096·2048·2 = 36,700,160 B.
  CHECK(ep_bytes_per_call(4096, 2048, 2, 1.25, 8, 2) == Approx(36700160.0));
  // 10 MoE layers, 2 micro-batches: 4·10·2 = 80 all-to-alls; 6·10·2 = 120 with full recompute.
  CHECK(ep_bytes_per_iteration(36700160.0, 10, 2, false) == Approx(80 * 36700160.0));
  CHECK(ep_bytes_per_iteration(36700160.0, 10, 2, true) == Approx(120 * 36700160.0));
}

TEST_CASE("CP passes cp-1 K/V blocks per layer forward and twice that backward", "[analytic]") {
  // b=1, s/cp = 2048, 8 kv heads / tp 2 = 4 local, d=128, bf16: 2·2048·4·128·2 = 4,194,304 B.
  const double block = cp_kv_block_bytes(1, 2048, 4, 128, 2);
  CHECK(block == 4194304.0);
  // cp = 4: forward 3 blocks + backward 6 = 9 per layer; 16 layers × 2 micro-batches → 288 blocks.
  CHECK(cp_bytes_per_iteration(block, 4, 16, 2, false) == Approx(288 * block));
  CHECK(cp_bytes_per_iteration(block, 4, 16, 2, true) == Approx(384 * block));  // + 3 recomputed
  CHECK(cp_bytes_per_iteration(block, 1, 16, 2, false) == 0);
}

TEST_CASE("PP sends one activation per boundary per micro-batch each way", "[analytic]") {
  // b=1, s=4096, h=8192, bf16 = 67,108,864 B; split over t = 8 → 8,388,608 B.
  CHECK(pp_message_bytes(1, 4096, 8192, 2, 8, false) == 67108864.0);
  CHECK(pp_message_bytes(1, 4096, 8192, 2, 8, true) == 8388608.0);
  const double msg = 1e6;
  // p = 4, m = 8, v = 1: middle stage sends 8 forward + 8 backward; first only forward; last only backward.
  CHECK(pp_bytes_per_iteration(msg, 8, 1, 1, 4) == Approx(16e6));
  CHECK(pp_bytes_per_iteration(msg, 8, 1, 0, 4) == Approx(8e6));
  CHECK(pp_bytes_per_iteration(msg, 8, 1, 3, 4) == Approx(8e6));
  // v = 2: the last stage's first chunk wraps around to stage 0: 8·1 forward + 8·2 backward.
  CHECK(pp_bytes_per_iteration(msg, 8, 2, 3, 4) == Approx(24e6));
  CHECK(pp_bytes_per_iteration(msg, 8, 1, 0, 1) == 0);
}
