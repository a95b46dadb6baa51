// Per-member flows of each collective algorithm (sim/analytic/collective_peers) against the
// transfers of the algorithm's own plan (sim/collective): in bulk mode a member sends one flow per
// peer carrying everything the plan sends it over all steps.
#include <catch2/catch.hpp>
#include <map>

#include "sim/analytic/collective_peers.hpp"

using namespace trainsim;

namespace {

// Bytes member `member` sends to each peer over the whole plan.
std::map<int, double> plan_sends(const CollectivePlan& plan, int member) {
  std::map<int, double> out;
  for (const CollectiveStep& s : plan.steps)
    for (const Transfer& t : s.transfers)
      if (t.src == member) out[t.dst] += t.bytes;
  return out;
}

}  // namespace

TEST_CASE("each member's flows are the peers and volumes its algorithm's plan sends to", "[analytic][links]") {
  const CollectiveKind kinds[] = {CollectiveKind::kAllReduce, CollectiveKind::kReduceScatter,
                                  CollectiveKind::kAllGather, CollectiveKind::kAllToAll};
  const Bytes bytes = 24.0 * 1024 * 1024;
  for (const char* name : {"ring", "direct", "hierarchical"}) {
    const CollectiveAlgorithm& algorithm = find_collective(name);
    for (CollectiveKind kind : kinds) {
      if (!supports(algorithm, kind)) continue;
      for (int n : {2, 3, 4, 6, 8}) {
        for (int g : {1, 2, n}) {
          if (n % g != 0) continue;
          const GroupShape shape{n, g};
          const CollectivePlan plan = algorithm.plan(kind, shape, bytes);
          for (int i = 0; i < n; ++i) {
            INFO(name << " " << to_string(kind) << " n " << n << " g " << g << " member " << i);
            const std::map<int, double> expected = plan_sends(plan, i);
            const std::vector<PeerSend> got = member_sends(kind, name, shape, i);
            REQUIRE(got.size() == expected.size());
            for (const PeerSend& p : got) {
              REQUIRE(expected.count(p.member) == 1);
              CHECK(p.share * bytes == Approx(expected.at(p.member)));
            }
          }
        }
      }
    }
  }
}

// NVLS: one flow up to the switch; the port also carries the result down, so the flow counts the
// larger volume: all-reduce S up and S down, reduce-scatter S up, all-gather S/n up and S down.
TEST_CASE("an in-switch reduction is one flow to the switch with the larger of its up and down volumes",
          "[analytic][links]") {
  for (CollectiveKind kind : {CollectiveKind::kAllReduce, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather}) {
    const CollectivePlan plan = find_collective("nvls").plan(kind, {4, 4}, 8.0 * 1024 * 1024);
    double up = 0, down = 0;
    for (const CollectiveStep& s : plan.steps)
      for (const Transfer& t : s.transfers) {
        if (t.src == 1) up += t.bytes;
        if (t.dst == 1) down += t.bytes;
      }
    const std::vector<PeerSend> got = member_sends(kind, "nvls", {4, 4}, 1);
    REQUIRE(got.size() == 1u);
    CHECK(got[0].member == kSwitchMember);
    CHECK(got[0].share * 8.0 * 1024 * 1024 == Approx(std::max(up, down)));
  }
}
