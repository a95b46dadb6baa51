// Link sharing between dimensions (sim/analytic/link_sharing, shared_time) on small runs whose
// links can be listed by hand.
#include <catch2/catch.hpp>
#include <filesystem>

#include "sim/analytic/iteration_inputs.hpp"
#include "sim/analytic/link_sharing.hpp"
#include "sim/config/loader.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;
namespace fs = std::filesystem;

namespace {

// Mixtral 8x7B cut to 2 layers on `platform`, tp x dp with ep, ZeRO-3.
RunSpec mixtral(const std::string& platform, int devices, int tp, int dp, int ep) {
  return load_run(kRoot / "workloads/mixtral-8x7b-h100.yaml",
                  {"platform=" + platform, "model.layers=2", "devices=" + std::to_string(devices),
                   "global_batch=" + std::to_string(dp), "strategy.tp=" + std::to_string(tp), "strategy.pp=1",
                   "strategy.dp=" + std::to_string(dp), "strategy.ep=" + std::to_string(ep), "strategy.zero_stage=3",
                   "strategy.sequence_parallel=false"});
}

Slowdown between(const RunSpec& run, Traffic of, Traffic beside) {
  const CommCosts cc(run);
  return LinkSharing(run, cc, payloads(run), 0, 64e6).slowdown(of, beside);
}
}  // namespace

// 910B full mesh, ranks 0-7, tp 4 x dp 2: TP group {0..3}, DP and EP group {0, 4}. Rank 0's TP
// all-reduce (direct on the mesh) sends on links 0-1, 0-2, 0-3; DP and EP (direct, 2 members)
// each one flow on link 0-4. EP and DP share their only link: one flow each, so while DP is
// active EP gets half of it: kappa 1, on the node's links. TP shares nothing with either.
TEST_CASE("on a full mesh, EP carved out of DP shares DP's pair links; TP shares none", "[analytic][links]") {
  const RunSpec run = mixtral("ascend-910b-pod", 8, 4, 2, 2);
  const Slowdown ep = between(run, Traffic::kEp, Traffic::kDp);
  CHECK(ep.factor == Approx(1));
  CHECK(ep.tier_class == 0);
  CHECK(between(run, Traffic::kTp, Traffic::kDp).factor == 0);
  CHECK(between(run, Traffic::kTp, Traffic::kEp).factor == 0);
  CHECK(between(run, Traffic::kEp, Traffic::kEp).factor == 0);
}

// The same strategy behind CloudMatrix's node switch (one port per device, no in-network
// reduction): TP's ring and DP's ring (2 members) each send one flow through rank 0's port, so TP
// is slowed by 1 + 1/1 - 1 = 1 while DP is active.
TEST_CASE("behind a switch every dimension on the same tier shares the device's port", "[analytic][links]") {
  const RunSpec run = mixtral("cloudmatrix384", 8, 4, 2, 2);
  CHECK(between(run, Traffic::kTp, Traffic::kDp).factor == Approx(1));
  CHECK(between(run, Traffic::kEp, Traffic::kDp).factor == Approx(1));
}

// DGX H100, 16 ranks, tp 8 x dp 2: TP inside the NVSwitch node, DP and EP pairs {0, 8} across
// nodes through rank 0's NIC (network tier): EP shares the NIC with DP, TP shares nothing.
TEST_CASE("across nodes EP and DP share the NIC, on the network tier", "[analytic][links]") {
  const RunSpec run = mixtral("dgx-h100-superpod", 16, 8, 2, 2);
  const Slowdown ep = between(run, Traffic::kEp, Traffic::kDp);
  CHECK(ep.factor == Approx(1));
  CHECK(ep.tier_class == 1);
  CHECK(between(run, Traffic::kTp, Traffic::kDp).factor == 0);
}

// DGX H100, dp 8 = ep 8 in one node: DP's ZeRO-3 gather is NVLS (one flow up the port), EP's
// all-to-all 7 flows (one per peer) through the same port. Fair shares per flow: EP keeps 7/8
// (kappa 1/7), DP gets 1/8 (kappa 7).
TEST_CASE("the port splits per flow: seven all-to-all flows beside one NVLS flow", "[analytic][links]") {
  const RunSpec run = mixtral("dgx-h100-superpod", 8, 1, 8, 8);
  CHECK(between(run, Traffic::kEp, Traffic::kDp).factor == Approx(1.0 / 7));
  CHECK(between(run, Traffic::kDp, Traffic::kEp).factor == Approx(7));
}

// shared_time on the 910B case: exposed EP per micro-batch gains EP_exposed x u(DP) x kappa, with
// u(DP) = ZeRO-3 hidden / (t - ZeRO-3 exposed), t the stage's uncontended time per micro-batch
// (compute + exposed TP, CP, EP, ZeRO-3), kappa 1; TP gains nothing (no shared link).
TEST_CASE("exposed EP is stretched by the share of time ZeRO-3 traffic holds its links", "[analytic][links]") {
  const IterationInputs in = extract_iteration_inputs(mixtral("ascend-910b-pod", 8, 4, 2, 2));
  const StageInputs& s = in.stages[0];
  const double t = s.forward + s.backward_input + s.weight_grad + s.recompute + s.tp_exposed + s.cp_exposed +
                   s.ep_exposed + s.zero3_exposed;
  const double u = std::min(1.0, s.zero3_hidden / (t - s.zero3_exposed));
  REQUIRE(s.ep_exposed > 0);
  REQUIRE(u > 0);
  const SharedTime& steady = shared_terms(in, s).steady;
  CHECK(steady.ep[0] == Approx(s.ep_exposed * u));
  CHECK(steady.ep[1] == 0);
  CHECK(steady.tp[0] + steady.tp[1] == 0);
}

TEST_CASE("the run's collectives.dp picks the algorithm of the dp x cp and the expert data-parallel reductions",
          "[analytic][links]") {
  // Mixtral on 64 H100, dp 16 over 2 nodes, ep 8: the dp x cp group has 16 ranks, the experts' 2.
  const RunSpec chosen = load_run(kRoot / "workloads/mixtral-8x7b-h100.yaml", {"model.layers=4"});
  const CommCosts free(chosen);
  const std::string picked = free.setup(0, Dim::kDpCp, CollectiveKind::kReduceScatter, 64e6).algorithm;
  const std::string other = picked == "ring" ? "hierarchical" : "ring";
  const RunSpec run =
      load_run(kRoot / "workloads/mixtral-8x7b-h100.yaml", {"model.layers=4", "collectives.dp=" + other});
  const CommCosts cc(run);
  CHECK(std::string(cc.setup(0, Dim::kDpCp, CollectiveKind::kReduceScatter, 64e6).algorithm) == other);
  CHECK(std::string(cc.setup(0, Dim::kEdp, CollectiveKind::kReduceScatter, 64e6).algorithm) == other);
}
