#include <catch2/catch.hpp>

#include "sim/collective/plan.hpp"
#include "sim/core/error.hpp"

using namespace trainsim;

TEST_CASE("double binary tree all-reduce takes 2*floor(log2 n) steps", "[collective]") {
  // The in-order tree's root is the largest power of two 2^k <= n and its left chain halves
  // down to label 1, so the depth is k = floor(log2 n); reduce up then broadcast down is 2k: n = 2 -> 2, 4 -> 4, 5 -> 4, 8 -> 6, 16 -> 8, 1000 -> 2*9 = 18.
  const std::vector<std::pair<int, int>> cases = {{2, 2}, {4, 4}, {5, 4}, {8, 6}, {16, 8}, {1000, 18}};
  for (const auto& [n, steps] : cases) {
    const CollectivePlan plan = find_collective("tree").plan(CollectiveKind::kAllReduce, GroupShape{n, 1}, 1e6);
    CHECK(step_count(plan) == steps);
  }
}

TEST_CASE("double binary tree: no member forwards to two children in both trees", "[collective]") {
  // In the broadcast half (steps D..2D-1) a member sends S/2 to each child. If the two trees
  // are complementary, a member has children in one tree only, so it sends at most
  // 2 children * S/2 = S there; a member interior in both trees could send up to 2 S.
  for (int n : {8, 13, 16, 33}) {
    const Bytes s = 1e6;
    const CollectivePlan plan = find_collective("tree").plan(CollectiveKind::kAllReduce, GroupShape{n, 1}, s);
    const size_t depth = plan.steps.size() / 2;
    std::vector<Bytes> down(static_cast<size_t>(n), 0.0);
    for (size_t st = depth; st < plan.steps.size(); ++st)
      for (const Transfer& t : plan.steps[st].transfers) down[static_cast<size_t>(t.src)] += t.bytes;
    for (int m = 0; m < n; ++m) CHECK(down[static_cast<size_t>(m)] <= Approx(s));
  }
  const int n = 16;
  const Bytes s = 1e6;
  CHECK_THROWS_AS(find_collective("tree").plan(CollectiveKind::kAllGather, GroupShape{n, 1}, s), UserError);
}

TEST_CASE("nvls all-reduce sends each buffer once up to the switch and once down", "[collective]") {
  const int n = 8;
  // 8e6 bytes = 7.6 MiB -> floor = 7 chunks of 8e6/7 bytes, pipelined: 7 + 1 = 8 steps.
  const Bytes s = 8e6;
  const CollectivePlan plan = find_collective("nvls").plan(CollectiveKind::kAllReduce, GroupShape{n, 8}, s);
  CHECK(step_count(plan) == 8);
  for (int m = 0; m < n; ++m) {
    CHECK(per_member_volume(plan, m) == Approx(s));
    CHECK(per_member_received(plan, m) == Approx(s));
  }
  for (const Transfer& t : plan.steps.front().transfers) CHECK(t.dst == kSwitchMember);
  for (const Transfer& t : plan.steps.back().transfers) CHECK(t.src == kSwitchMember);
  // The switch forwards n results of S bytes.
  CHECK(per_member_volume(plan, kSwitchMember) == Approx(n * s));
  // Reduce-scatter: up S, down S/n = 1e6.
  const CollectivePlan rs = find_collective("nvls").plan(CollectiveKind::kReduceScatter, GroupShape{n, 8}, s);
  CHECK(per_member_received(rs, 3) == Approx(1e6));
  // A buffer under 1 MiB is one chunk: up, then down, 2 steps.
  CHECK(step_count(find_collective("nvls").plan(CollectiveKind::kAllReduce, GroupShape{n, 8}, 1e5)) == 2);
}
