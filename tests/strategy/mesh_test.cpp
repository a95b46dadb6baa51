#include <catch2/catch.hpp>
#include <algorithm>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/strategy/mesh.hpp"

using namespace trainsim;

namespace {

StrategySpec degrees(int tp, int cp, int ep, int dp, int pp, const char* order = "tp-cp-ep-dp-pp") {
  StrategySpec s;
  s.tp = tp;
  s.cp = cp;
  s.ep = ep;
  s.dp = dp;
  s.pp = pp;
  s.mesh_order = order;
  return s;
}

using Groups = std::vector<std::vector<int>>;

}  // namespace

// Megatron-LM's documented example (megatron/core/parallel_state.py, initialize_model_parallel):
// 16 GPUs, tp 2, pp 4, so dp = 16 / (2*4) = 2. With tp fastest, then dp, then pp:
// rank = tp + 2*dp + 4*pp. TP groups pair consecutive ranks; DP groups differ by the dp
// stride 2; PP groups differ by the pp stride 4.
TEST_CASE("Megatron's 16-GPU example: tp 2, pp 4 gives its documented TP, DP and PP groups", "[mesh]") {
  const Mesh mesh(degrees(2, 1, 1, 2, 4));
  REQUIRE(mesh.size() == 16);
  const Groups tp = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}, {10, 11}, {12, 13}, {14, 15}};
  for (const auto& g : tp) {
    for (int r : g) CHECK(mesh.group(r, Dim::kTp) == g);
  }
  const Groups dp = {{0, 2}, {1, 3}, {4, 6}, {5, 7}, {8, 10}, {9, 11}, {12, 14}, {13, 15}};
  for (const auto& g : dp) {
    for (int r : g) CHECK(mesh.group(r, Dim::kDp) == g);
  }
  const Groups pp = {{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}};
  for (const auto& g : pp) {
    for (int r : g) CHECK(mesh.group(r, Dim::kPp) == g);
  }
  // Rank 13 = 1 + 2*0 + 4*3: tp 1, dp 0, stage 3; the same position on stage 1 is 1 + 4 = 5.
  const Coord c = mesh.coord(13);
  CHECK(c[Dim::kTp] == 1);
  CHECK(c[Dim::kDp] == 0);
  CHECK(c[Dim::kPp] == 3);
  CHECK(mesh.rank_at_stage(13, 1) == 5);
  CHECK(mesh.group(13, Dim::kCp) == std::vector<int>{13});
}

TEST_CASE("every rank of an odd-shaped mesh maps to coordinates and back to itself", "[mesh]") {
  // tp 3, cp 2, dp 5, pp 7 = 210 ranks, ep 5 divides cp*dp = 10.
  for (const char* order : {"tp-cp-ep-dp-pp", "pp-dp-cp-tp", "dp-tp-pp-cp"}) {
    const Mesh mesh(degrees(3, 2, 5, 5, 7, order));
    REQUIRE(mesh.size() == 210);
    std::vector<int> hits(210, 0);
    for (int r = 0; r < mesh.size(); ++r) {
      const Coord c = mesh.coord(r);
      CHECK(mesh.rank(c) == r);
      ++hits[mesh.rank(c)];
      for (Dim d : {Dim::kTp, Dim::kCp, Dim::kEp, Dim::kDp, Dim::kPp}) {
        const std::vector<int> g = mesh.group(r, d);
        REQUIRE(static_cast<int>(g.size()) == mesh.degree(d));
        CHECK(g[c[d]] == r);  // a rank sits at its own coordinate inside each of its groups
      }
    }
    CHECK(std::count(hits.begin(), hits.end(), 1) == 210);
  }
}

// tp 2, cp 2, dp 4, pp 1 (16 ranks, order tp-cp-ep-dp-pp): rank = tp + 2*cp + 4*dp.
// Combined index i = cp + 2*dp runs 0..7; ep 4 groups i in {0..3} and {4..7}.
// For tp 0: i = 0..3 -> (cp,dp) = (0,0),(1,0),(0,1),(1,1) -> ranks 0, 2, 4, 6;
//           i = 4..7 -> (0,2),(1,2),(0,3),(1,3) -> ranks 8, 10, 12, 14.
TEST_CASE("EP groups are ep consecutive expert-data-parallel indices with the same tp and pp", "[mesh]") {
  const Mesh mesh(degrees(2, 2, 4, 4, 1));
  CHECK(mesh.group(0, Dim::kEp) == std::vector<int>{0, 2, 4, 6});
  CHECK(mesh.group(12, Dim::kEp) == std::vector<int>{8, 10, 12, 14});
  CHECK(mesh.group(13, Dim::kEp) == std::vector<int>{9, 11, 13, 15});
  // Rank 12 = 4*3: cp 0, dp 3 -> i = 6 -> EP coordinate 6 % 4 = 2 (third in {8, 10, 12, 14}).
  CHECK(mesh.coord(12)[Dim::kEp] == 2);
  CHECK(mesh.coord(6)[Dim::kEp] == 3);  // cp 1, dp 1 -> i = 3
  // EP groups cut across the CP and DP groups but never across TP.
  CHECK(mesh.group(6, Dim::kCp) == std::vector<int>{4, 6});
  CHECK(mesh.group(6, Dim::kDp) == std::vector<int>{2, 6, 10, 14});
}

// The same mesh: the expert-data-parallel group holds the ranks with the same experts, one per EP
// group: combined indices congruent modulo ep 4. i = 2 (rank 4) pairs with i = 6 (cp 0, dp 3: rank 12);
// i = 3 (rank 6) with i = 7 (cp 1, dp 3: rank 14). cp*dp/ep = 2 members, in EP-group order.
TEST_CASE("expert-data-parallel groups take one rank per EP group, the one holding the same experts", "[mesh]") {
  const Mesh mesh(degrees(2, 2, 4, 4, 1));
  CHECK(mesh.degree(Dim::kEdp) == 2);
  CHECK(mesh.group(4, Dim::kEdp) == std::vector<int>{4, 12});
  CHECK(mesh.group(14, Dim::kEdp) == std::vector<int>{6, 14});
  CHECK(mesh.group(15, Dim::kEdp) == std::vector<int>{7, 15});  // tp 1 stays tp 1
  CHECK(mesh.coord(12)[Dim::kEdp] == 1);                         // i = 6: the second EP group
  CHECK(mesh.coord(12)[Dim::kEp] == mesh.coord(4)[Dim::kEp]);    // the same experts
  // ep 1: every rank holds every expert, so the group is the whole cp x dp set.
  CHECK(Mesh(degrees(2, 2, 1, 4, 1)).group(6, Dim::kEdp).size() == 8);
  // ep = cp*dp: each EP group is the whole set, and no two ranks share experts.
  const Mesh whole(degrees(2, 2, 8, 4, 1));
  CHECK(whole.group(6, Dim::kEdp) == std::vector<int>{6});
  // The Qwen3 recipe's mesh (tp 1, dp 32, ep 8 over nodes of 8): ranks 0, 8, 16, 24, one per node.
  CHECK(Mesh(degrees(1, 1, 8, 32, 1)).group(0, Dim::kEdp) == std::vector<int>{0, 8, 16, 24});
  CHECK(expert_grad_degree(degrees(1, 1, 8, 32, 1)) == 4);
  CHECK(expert_grad_dim(degrees(1, 1, 1, 32, 1)) == Dim::kDpCp);
  // The data-parallel group with CP: every combined (cp, dp) index of the (tp, pp) position, cp fastest.
  CHECK(mesh.group(5, Dim::kDpCp) == std::vector<int>{1, 3, 5, 7, 9, 11, 13, 15});
  CHECK(mesh.coord(6)[Dim::kDpCp] == 3);  // cp 1, dp 1
}

TEST_CASE("a mesh_order may not name the expert-data-parallel dimension", "[mesh]") {
  CHECK_THROWS_AS(parse_mesh_order("tp-cp-edp-dp-pp"), StrategyError);
}

// Order dp-tp-pp-cp with dp 2, tp 2, pp 2, cp 2: rank = dp + 2*tp + 4*pp + 8*cp.
TEST_CASE("a different mesh_order changes which ranks are neighbours", "[mesh]") {
  const Mesh mesh(degrees(2, 2, 1, 2, 2, "dp-tp-pp-cp"));
  CHECK(mesh.group(0, Dim::kDp) == std::vector<int>{0, 1});
  CHECK(mesh.group(0, Dim::kTp) == std::vector<int>{0, 2});
  CHECK(mesh.group(0, Dim::kPp) == std::vector<int>{0, 4});
  CHECK(mesh.group(0, Dim::kCp) == std::vector<int>{0, 8});
  // Rank 11 = 1 + 2*1 + 8*1: dp 1, tp 1, pp 0, cp 1; on stage 1 it is 11 + 4 = 15.
  CHECK(mesh.rank_at_stage(11, 1) == 15);
  CHECK(mesh.order() == std::vector<Dim>{Dim::kDp, Dim::kTp, Dim::kPp, Dim::kCp});
}

TEST_CASE("a mesh_order that is not a permutation of tp, cp, dp, pp is rejected naming the valid dims",
          "[mesh]") {
  for (const char* bad : {"tp-dp-pp", "tp-cp-dp-pp-tp", "tp-cp-xp-dp-pp", "", "tp-cp-dp-pp-"}) {
    CHECK_THROWS_AS(Mesh(degrees(1, 1, 1, 1, 1, bad)), StrategyError);
    CHECK_THROWS_WITH(parse_mesh_order(bad), Catch::Contains("tp, cp, dp, pp"));
  }
  CHECK_THROWS_WITH(parse_mesh_order("tp-dp-pp"), Catch::Contains("'cp' is missing"));
  CHECK_NOTHROW(parse_mesh_order("pp-dp-cp-tp"));  // ep may be left out
}

TEST_CASE("expert parallelism that does not divide cp*dp is rejected", "[mesh]") {
  CHECK_THROWS_AS(Mesh(degrees(1, 1, 3, 4, 1)), StrategyError);  // 3 does not divide 4
  CHECK_NOTHROW(Mesh(degrees(1, 3, 3, 1, 1)));                   // 3 divides cp*dp = 3
}

// 8 devices per node: ranks 0..7 on node 0, 8..15 on node 1.
TEST_CASE("a group lies inside one node only when all its ranks share rank / devices_per_node", "[mesh]") {
  CHECK(node_of(7, 8) == 0);
  CHECK(node_of(8, 8) == 1);
  CHECK(within_one_node({0, 1, 2, 7}, 8));
  CHECK_FALSE(within_one_node({6, 7, 8}, 8));
  // Megatron order keeps tp 8 inside a node of 8, while dp 2 (stride 8) spans two nodes.
  const Mesh mesh(degrees(8, 1, 1, 2, 1));
  CHECK(within_one_node(mesh.group(3, Dim::kTp), 8));
  CHECK_FALSE(within_one_node(mesh.group(3, Dim::kDp), 8));
}
