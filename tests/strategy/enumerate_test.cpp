#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/strategy/enumerate.hpp"

using namespace trainsim;

// Ordered ways to write 2^k as a product of 3 factors (pp, cp, dp): distribute k twos among 3
// slots, C(k+2, 2). For 8 devices: tp 1 -> k 3 -> 10; tp 2 -> k 2 -> 6; tp 4 -> 3; tp 8 -> 1.
TEST_CASE("8 devices with 32 heads admit 20 factorisations with tp up to 8", "[enumerate]") {
  const auto all = enumerate_degrees(8, 32, 8);
  CHECK(all.size() == 20u);
  for (const auto& d : all) CHECK(d.tp * d.pp * d.dp * d.cp == 8);
  CHECK(all.front().tp == 1);
  CHECK(all.back().tp == 8);
  // tp bound 2 keeps tp 1 and 2: 10 + 6.
  CHECK(enumerate_degrees(8, 32, 2).size() == 16u);
}

// 12 heads: powers of two dividing 12 are 1, 2, 4, so tp 8 drops: 10 + 6 + 3 = 19.
TEST_CASE("tp must be a power of two that divides the attention heads", "[enumerate]") {
  const auto all = enumerate_degrees(8, 12, 8);
  CHECK(all.size() == 19u);
  for (const auto& d : all) CHECK(d.tp <= 4);
}

// 12 devices, 8 heads: tp in {1, 2, 4}. 12 = 2^2 * 3 -> (C(4,2) for the twos) * (C(3,2) for the
// three) = 18; 6 = 2 * 3 -> 3 * 3 = 9; 3 -> 3. Total 30. tp 3 or 6 is never offered (not 2^k).
TEST_CASE("a device count with an odd factor spreads it over pp, cp and dp", "[enumerate]") {
  const auto all = enumerate_degrees(12, 8, 8);
  CHECK(all.size() == 30u);
  int tp4 = 0;
  for (const auto& d : all) tp4 += d.tp == 4;
  CHECK(tp4 == 3);
}

TEST_CASE("enumerating with no devices or heads is a strategy error", "[enumerate]") {
  CHECK_THROWS_AS(enumerate_degrees(0, 8, 8), StrategyError);
  CHECK_THROWS_AS(enumerate_degrees(8, 0, 8), StrategyError);
  CHECK_THROWS_AS(enumerate_degrees(8, 8, 0), StrategyError);
}
