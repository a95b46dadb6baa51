#include <catch2/catch.hpp>

#include <set>

#include "sim/collective/plan.hpp"
#include "sim/core/error.hpp"

using namespace trainsim;

TEST_CASE("direct all-to-all sends bytes/n to every other member once, all pairs in one step", "[collective]") {
  // n = 8, 8e6 bytes: 1e6 to each of the 7 others = 7e6 per member; NCCL posts the n(n-1) sends
  // of an all-to-all as one group, so they form one step of 8 * 7 = 56 transfers.
  const int n = 8;
  const CollectivePlan plan = find_collective("direct").plan(CollectiveKind::kAllToAll, GroupShape{n, 1}, 8e6);
  CHECK(step_count(plan) == 1);
  std::set<std::pair<int, int>> pairs;
  for (const Transfer& t : plan.steps[0].transfers) {
    CHECK(t.src != t.dst);
    CHECK(t.bytes == Approx(1e6));
    CHECK(pairs.insert({t.src, t.dst}).second);
  }
  CHECK(pairs.size() == static_cast<size_t>(n * (n - 1)));
  for (int m = 0; m < n; ++m) CHECK(per_member_volume(plan, m) == Approx(7e6));
  for (int m = 0; m < n; ++m) CHECK(per_member_received(plan, m) == Approx(7e6));
}

TEST_CASE("direct reduce-scatter and all-gather move (n-1)/n like the ring, all-reduce twice that",
          "[collective]") {
  // n = 4, 8e6 bytes: RS/AG 3/4 * 8e6 = 6e6 in 3 steps; AR 12e6 in 6 steps.
  const CollectiveAlgorithm& direct = find_collective("direct");
  for (CollectiveKind kind : {CollectiveKind::kReduceScatter, CollectiveKind::kAllGather}) {
    const CollectivePlan plan = direct.plan(kind, GroupShape{4, 1}, 8e6);
    CHECK(step_count(plan) == 3);
    CHECK(per_member_volume(plan, 2) == Approx(6e6));
  }
  const CollectivePlan ar = direct.plan(CollectiveKind::kAllReduce, GroupShape{4, 1}, 8e6);
  CHECK(step_count(ar) == 6);
  CHECK(per_member_volume(ar, 1) == Approx(12e6));
  CHECK_THROWS_AS(direct.plan(CollectiveKind::kBroadcast, GroupShape{4, 1}, 8e6), UserError);
}
