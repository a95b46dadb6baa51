// Group placements kept across meshes (sim/analytic/group_placements.hpp), worked by hand on 16
// devices in nodes of 4 (tiers: node of 4, then the rest).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "sim/analytic/group_placements.hpp"

using namespace trainsim;

namespace {

Mesh mesh(int tp, int dp, int pp, const std::string& order) {
  StrategySpec s;
  s.tp = tp, s.dp = dp, s.pp = pp, s.cp = 1, s.ep = 1;
  s.mesh_order = order;
  return Mesh(s);
}

const std::vector<int> kDomains = {4, 16};

}  // namespace

TEST_CASE("a tier holds two ranks when they share its domain, else the outermost tier", "[analytic][placement]") {
  CHECK(tier_between(kDomains, 0, 3) == 0);
  CHECK(tier_between(kDomains, 3, 4) == 1);
  CHECK(tier_between(kDomains, 0, 15) == 1);
  CHECK(tier_between({4}, 0, 15) == 0);  // one tier: the outermost is the only one
}

// tp 2, dp 4, pp 2, tp fastest then dp: rank = tp + 2 dp + 8 pp. Rank 5 (tp 1, dp 2, pp 0) has the dp
// group 1, 3, 5, 7 (two in each of nodes 0-3 and 4-7: node size 2, tier 1). With dp fastest
// (rank = dp + 4 tp + 8 pp), rank 5 is dp 1, tp 1: its dp group is 4-7, one node (tier 0).
TEST_CASE("kept placements follow the mesh order in use and start over when the degrees change",
          "[analytic][placement]") {
  GroupPlacements kept;
  kept.use(mesh(2, 4, 2, "tp-cp-ep-dp-pp"), kDomains);
  const GroupPlacements::Placement a = kept.get(5, Dim::kDp);
  CHECK(a.members == std::vector<int>{1, 3, 5, 7});
  CHECK(a.shape.members == 4);
  CHECK(a.shape.node_size == 2);
  CHECK(a.tier == 1);

  kept.use(mesh(2, 4, 2, "dp-cp-ep-tp-pp"), kDomains);
  const GroupPlacements::Placement b = kept.get(5, Dim::kDp);
  CHECK(b.members == std::vector<int>{4, 5, 6, 7});
  CHECK(b.shape.node_size == 4);
  CHECK(b.tier == 0);

  kept.use(mesh(2, 4, 2, "tp-cp-ep-dp-pp"), kDomains);  // back to the first order: its placements
  CHECK(kept.get(5, Dim::kDp).members == a.members);

  // tp 4, dp 2, pp 2 (rank = tp + 4 dp + 8 pp): rank 5 is tp 1, dp 1; its dp group is 1, 5.
  kept.use(mesh(4, 2, 2, "tp-cp-ep-dp-pp"), kDomains);
  CHECK(kept.get(5, Dim::kDp).members == std::vector<int>{1, 5});
  CHECK(kept.get(5, Dim::kTp).members == std::vector<int>{4, 5, 6, 7});
}

// 12 devices in nodes of 6, tp 4, dp 3, pp 1 (rank = tp + 4 dp): the dp groups are 0 4 8, 1 5 9,
// 2 6 10 and 3 7 11. The first two have two members in node 0, the last two one (2 | 6 10, 3 | 7
// 11): all four cross nodes, and the stage waits for the one with the fewest members together.
// The tp groups 0-3 and 8-11 sit in a node each; 4-7 straddles nodes 0 and 1 (4 5 | 6 7).
TEST_CASE("a dimension's collectives are costed on the worst placed group of the stage", "[analytic][placement]") {
  GroupPlacements kept;
  kept.use(mesh(4, 3, 1, "tp-cp-ep-dp-pp"), {6, 12});
  const GroupPlacements::Placement dp = kept.get(0, Dim::kDp);
  CHECK(dp.members == std::vector<int>{2, 6, 10});
  CHECK(dp.shape.members == 3);
  CHECK(dp.shape.node_size == 1);
  CHECK(dp.tier == 1);
  const GroupPlacements::Placement tp = kept.get(0, Dim::kTp);
  CHECK(tp.members == std::vector<int>{4, 5, 6, 7});
  CHECK(tp.shape.node_size == 2);
  CHECK(tp.tier == 1);
}
