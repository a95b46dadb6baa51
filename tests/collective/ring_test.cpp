#include <catch2/catch.hpp>

#include "sim/collective/plan.hpp"
#include "sim/core/error.hpp"

using namespace trainsim;

namespace {

// 8e6 bytes divides evenly by 4, 8 and 16, so every expected volume below is exact.
constexpr Bytes kBuffer = 8e6;

CollectivePlan plan_with(const std::string& algorithm, CollectiveKind kind, int n, int node_size = 1) {
  return find_collective(algorithm).plan(kind, GroupShape{n, node_size}, kBuffer);
}

}  // namespace

TEST_CASE("ring all-reduce moves 2(n-1)/n of the buffer per member in 2(n-1) steps", "[collective]") {
  // n = 4: 2*3/4 * 8e6 = 12e6 bytes in 6 steps; n = 8: 2*7/8 * 8e6 = 14e6 bytes in 14 steps.
  const std::vector<std::tuple<int, Bytes, int>> cases = {{4, 12e6, 6}, {8, 14e6, 14}};
  for (const auto& [n, volume, steps] : cases) {
    const CollectivePlan plan = plan_with("ring", CollectiveKind::kAllReduce, n);
    CHECK(step_count(plan) == steps);
    for (int m = 0; m < n; ++m) CHECK(per_member_volume(plan, m) == Approx(volume));
    // Each transfer goes to the right neighbour with one chunk of 8e6/n bytes.
    for (const CollectiveStep& step : plan.steps) {
      REQUIRE(step.transfers.size() == static_cast<size_t>(n));
      for (const Transfer& t : step.transfers) {
        CHECK(t.dst == (t.src + 1) % n);
        CHECK(t.bytes == Approx(kBuffer / n));
      }
    }
  }
}

TEST_CASE("ring reduce-scatter and all-gather move (n-1)/n of the buffer per member in n-1 steps",
          "[collective]") {
  // n = 4: 3/4 * 8e6 = 6e6 bytes in 3 steps; n = 8: 7/8 * 8e6 = 7e6 in 7 steps.
  const std::vector<std::tuple<int, Bytes, int>> cases = {{4, 6e6, 3}, {8, 7e6, 7}};
  for (CollectiveKind kind : {CollectiveKind::kReduceScatter, CollectiveKind::kAllGather}) {
    for (const auto& [n, volume, steps] : cases) {
      const CollectivePlan plan = plan_with("ring", kind, n);
      CHECK(step_count(plan) == steps);
      for (int m = 0; m < n; ++m) CHECK(per_member_volume(plan, m) == Approx(volume));
    }
  }
}

TEST_CASE("ring broadcast is a pipelined chain: the root sends the buffer once, the last member receives it",
          "[collective]") {
  // n = 4 members, 4 chunks of 2e6 bytes: chain fill (n-1 = 3) + remaining chunks (3) = 6 steps.
  const CollectivePlan plan = plan_with("ring", CollectiveKind::kBroadcast, 4);
  CHECK(step_count(plan) == 6);
  CHECK(per_member_volume(plan, 0) == Approx(kBuffer));
  CHECK(per_member_received(plan, 0) == 0);
  CHECK(per_member_volume(plan, 3) == 0);
  CHECK(per_member_received(plan, 3) == Approx(kBuffer));
}

TEST_CASE("a group of one member needs no transfer", "[collective]") {
  CHECK(step_count(plan_with("ring", CollectiveKind::kAllReduce, 1)) == 0);
  CHECK(step_count(plan_with("tree", CollectiveKind::kAllReduce, 1)) == 0);
  CHECK(step_count(plan_with("nvls", CollectiveKind::kAllReduce, 1)) == 0);
}

TEST_CASE("ring refuses all-to-all and an unknown algorithm name is a user error", "[collective]") {
  CHECK_THROWS_AS(plan_with("ring", CollectiveKind::kAllToAll, 4), UserError);
  CHECK_THROWS_WITH(find_collective("butterfly"), Catch::Contains("ring"));
  CHECK_THROWS_AS(plan_with("ring", CollectiveKind::kAllReduce, 0), UserError);
}
