#include <catch2/catch.hpp>

#include "sim/collective/plan.hpp"
#include "sim/core/error.hpp"

using namespace trainsim;

namespace {

// Bytes `member` sends to members of other nodes (inter) or its own node (intra).
Bytes sent_across(const CollectivePlan& plan, int member, int node_size, bool across) {
  Bytes sum = 0;
  for (const CollectiveStep& step : plan.steps)
    for (const Transfer& t : step.transfers)
      if (t.src == member && ((t.src / node_size != t.dst / node_size) == across)) sum += t.bytes;
  return sum;
}

}  // namespace

TEST_CASE("hierarchical all-reduce sends 2(N-1)/N * S/g per member across nodes", "[collective]") {
  // n = 16 members, g = 4 per node, N = 4 nodes, S = 8e6 (formulas.md item 6):
  //   inter-node: 2*(4-1)/4 * (8e6/4) = 1.5 * 2e6 = 3e6 bytes per member;
  //   intra-node: 2*(4-1)/4 * 8e6 = 12e6 bytes per member;
  //   steps: intra RS (g-1 = 3) + inter AR (2(N-1) = 6) + intra AG (3) = 12.
  const GroupShape shape{16, 4};
  const CollectivePlan plan = find_collective("hierarchical").plan(CollectiveKind::kAllReduce, shape, 8e6);
  CHECK(step_count(plan) == 12);
  for (int m = 0; m < 16; ++m) {
    CHECK(sent_across(plan, m, 4, true) == Approx(3e6));
    CHECK(sent_across(plan, m, 4, false) == Approx(12e6));
  }
  // Inter-node transfers only join members with the same local index.
  for (const CollectiveStep& step : plan.steps)
    for (const Transfer& t : step.transfers)
      if (t.src / 4 != t.dst / 4) CHECK(t.src % 4 == t.dst % 4);
}

TEST_CASE("hierarchical reduce-scatter and all-gather send (n-1)/n of the buffer like the flat ring",
          "[collective]") {
  // n = 16 (g = 4, N = 4), S = 8e6: intra (g-1)/g S = 6e6, inter (N-1)/N S/g = 1.5e6,
  // total 7.5e6 = (16-1)/16 * 8e6; steps (g-1) + (N-1) = 6.
  for (CollectiveKind kind : {CollectiveKind::kReduceScatter, CollectiveKind::kAllGather}) {
    const CollectivePlan plan = find_collective("hierarchical").plan(kind, GroupShape{16, 4}, 8e6);
    CHECK(step_count(plan) == 6);
    for (int m = 0; m < 16; ++m) {
      CHECK(per_member_volume(plan, m) == Approx(7.5e6));
      CHECK(sent_across(plan, m, 4, true) == Approx(1.5e6));
    }
  }
}

TEST_CASE("hierarchical inside one node is the plain ring, and partial nodes are refused", "[collective]") {
  const CollectiveAlgorithm& h = find_collective("hierarchical");
  // 8 members on one 8-member node: ring all-reduce, 2(8-1) = 14 steps.
  CHECK(step_count(h.plan(CollectiveKind::kAllReduce, GroupShape{8, 8}, 8e6)) == 14);
  CHECK_THROWS_AS(h.plan(CollectiveKind::kAllReduce, GroupShape{12, 8}, 8e6), UserError);
  CHECK_THROWS_AS(h.plan(CollectiveKind::kAllToAll, GroupShape{16, 4}, 8e6), UserError);
}
