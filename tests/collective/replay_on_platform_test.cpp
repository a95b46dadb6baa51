// Plans replayed on a built platform, step by step with a barrier between steps (every
// transfer of a step starts together; the next step starts when all have ended). This is a
// simpler schedule than the per-member rule of plan.hpp, equal to it when steps are uniform.
#include <catch2/catch.hpp>

#include <simgrid/s4u.hpp>

#include <cstdio>

#include "sim/collective/plan.hpp"
#include "tests/platform/platform_fixture.hpp"

using namespace trainsim;
using namespace trainsim::testing;

namespace {

// Replays `plan` on ranks 0..n-1; kSwitchMember is tier 0's switch of rank 0's domain.
std::string replay_time(const CollectivePlan& plan, const BuiltPlatform& p) {
  auto host_of = [&p](int member) { return member == kSwitchMember ? p.switch_host(0, 0) : p.hosts[static_cast<size_t>(member)]; };
  simgrid::s4u::Actor::create("driver", p.hosts[0], [&plan, host_of]() {
    for (const CollectiveStep& step : plan.steps) {
      std::vector<simgrid::s4u::CommPtr> comms;
      for (const Transfer& t : step.transfers)
        comms.push_back(simgrid::s4u::Comm::sendto_async(host_of(t.src), host_of(t.dst), static_cast<uint64_t>(t.bytes)));
      for (const simgrid::s4u::CommPtr& c : comms) c->wait();
    }
  });
  simgrid::s4u::Engine::get_instance()->run();
  char text[64];
  std::snprintf(text, sizeof text, "%.12g", simgrid::s4u::Engine::get_clock());
  return std::string(text);
}

// 8 devices on one NVSwitch (450 GB/s, 1 us), with NVLink SHARP.
PlatformSpec nvswitch8() {
  TierSpec nvlink = make_tier("nvlink", Topology::kNvswitch, 0, 450e9, 1e-6);
  nvlink.in_network_reduction = true;
  return make_platform({nvlink});
}

double run_plan(const PlatformSpec& spec, int devices, const CollectivePlan& plan) {
  return std::stod(in_simulation(spec, devices, [&plan](const BuiltPlatform& p) { return replay_time(plan, p); }));
}

}  // namespace

TEST_CASE("ring all-reduce replayed on one NVSwitch domain takes 2(n-1)(alpha + S/(n beta))", "[collective]") {
  // n = 8, S = 1.2e9, alpha = 1 us, beta = 450 GB/s; each step moves S/8 = 1.5e8 bytes per port:
  //   14 * (1e-6 + 1.5e8 / 4.5e11) = 14 * 3.343333e-4 = 4.680667e-3 s
  // = 2(n-1) alpha + 2(n-1)/n S/beta (formulas.md item 6).
  const CollectivePlan plan = find_collective("ring").plan(CollectiveKind::kAllReduce, GroupShape{8, 8}, 1.2e9);
  CHECK(run_plan(nvswitch8(), 8, plan) == Approx(14 * (1e-6 + 1.5e8 / 4.5e11)).epsilon(1e-9));
}

TEST_CASE("nvls all-reduce replayed through the switch endpoint streams the buffer once each way",
          "[collective]") {
  // S = 1.2e9 -> 8 chunks of 1.5e8. 9 steps; in each, ports carry one chunk up and/or one down
  // (separate directions), each way at the tier latency (port + switch):
  //   9 * (1e-6 + 1.5e8 / 4.5e11) = 9 * 3.343333e-4 = 3.009e-3 s (ring above: 4.68e-3).
  const CollectivePlan plan = find_collective("nvls").plan(CollectiveKind::kAllReduce, GroupShape{8, 8}, 1.2e9);
  CHECK(run_plan(nvswitch8(), 8, plan) == Approx(9 * (1e-6 + 1.5e8 / 4.5e11)).epsilon(1e-9));
}

TEST_CASE("hierarchical all-reduce replayed on two nodes matches the two-level formula", "[collective]") {
  // 2 nodes x 4 devices: NVSwitch (450 GB/s, 1 us) inside, 50 GB/s NICs (2 us) between.
  // g = 4, N = 2, S = 1.2e9 (formulas.md item 6):
  //   intra RS + AG: 2(g-1) = 6 steps of S/g = 3e8 -> 6 * (1e-6 + 3e8 / 4.5e11) = 4.006e-3
  //   inter AR: 2(N-1) = 2 steps of S/(gN) = 1.5e8, 4 rings on 4 separate NICs
  //             -> 2 * (2e-6 + 1.5e8 / 5e10) = 6.004e-3
  //   total 1.001e-2 s.
  const PlatformSpec spec = make_platform(
      {make_tier("nvlink", Topology::kNvswitch, 4, 450e9, 1e-6), make_tier("ib", Topology::kFatTree, 0, 50e9, 2e-6)});
  const CollectivePlan plan =
      find_collective("hierarchical").plan(CollectiveKind::kAllReduce, GroupShape{8, 4}, 1.2e9);
  CHECK(run_plan(spec, 8, plan) == Approx(4.006e-3 + 6.004e-3).epsilon(1e-9));
}
