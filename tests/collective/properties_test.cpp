#include <catch2/catch.hpp>

#include "sim/collective/plan.hpp"

using namespace trainsim;

TEST_CASE("every member sends as much as it receives in all-reduce, RS, AG and all-to-all", "[collective]") {
  // Symmetric collectives: every member ends with the same amount of data it started with
  // (AR) or the plans are rotations of one pattern, so sent == received per member. NVLS
  // is checked for all-reduce only (its RS/AG are asymmetric by design: S up, S/n down).
  const std::vector<GroupShape> shapes = {{2, 1}, {3, 1}, {5, 1}, {8, 1}, {16, 4}, {24, 8}, {8, 8}};
  for (const CollectiveAlgorithm& algorithm : collective_algorithms()) {
    for (CollectiveKind kind : algorithm.supports) {
      if (kind == CollectiveKind::kBroadcast) continue;
      if (algorithm.name == "nvls" && kind != CollectiveKind::kAllReduce) continue;
      for (const GroupShape& shape : shapes) {
        const CollectivePlan plan = algorithm.plan(kind, shape, 4.8e6);
        for (int m = 0; m < shape.members; ++m) {
          INFO(algorithm.name << " " << to_string(kind) << " n=" << shape.members << " member " << m);
          CHECK(per_member_volume(plan, m) == Approx(per_member_received(plan, m)));
          CHECK(per_member_volume(plan, m) > 0);
        }
        for (const CollectiveStep& step : plan.steps)
          for (const Transfer& t : step.transfers) {
            CHECK(t.src != t.dst);
            CHECK(t.src < shape.members);
            CHECK(t.dst < shape.members);
          }
      }
    }
  }
}

TEST_CASE("default choice: nvls in a reducing switch, direct for all-to-all, tree small across many nodes",
          "[collective]") {
  const GroupShape in_node{8, 8};
  const GroupShape across{64, 8};   // 8 nodes of 8 members
  const GroupShape one_per_node{64, 1};
  CHECK(choose_collective(CollectiveKind::kAllReduce, in_node, 1e9, true).name == "nvls");
  CHECK(choose_collective(CollectiveKind::kAllReduce, in_node, 1e9, false).name == "ring");
  CHECK(choose_collective(CollectiveKind::kAllToAll, across, 1e9, false).name == "direct");
  // 8 nodes: tree below 8 * 64 KiB = 512 KiB.
  CHECK(choose_collective(CollectiveKind::kAllReduce, across, 256 * 1024, false).name == "tree");
  CHECK(choose_collective(CollectiveKind::kAllReduce, across, 1e9, false).name == "hierarchical");
  CHECK(choose_collective(CollectiveKind::kReduceScatter, across, 1e3, false).name == "hierarchical");
  CHECK(choose_collective(CollectiveKind::kAllReduce, one_per_node, 1e9, false).name == "ring");
  // 2 nodes is below the tree's 4-node minimum.
  CHECK(choose_collective(CollectiveKind::kAllReduce, GroupShape{2, 1}, 1e3, false).name == "ring");
  FabricHints mesh;
  mesh.direct_links = true;
  CHECK(choose_collective(CollectiveKind::kAllReduce, in_node, 1e9, mesh).name == "direct");
  CHECK(choose_collective(CollectiveKind::kBroadcast, across, 1e9, false).name == "ring");
}
