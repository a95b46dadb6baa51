#include <catch2/catch.hpp>

#include <simgrid/s4u/Host.hpp>

#include "tests/platform/platform_fixture.hpp"

using namespace trainsim;
using namespace trainsim::testing;

TEST_CASE("rail-optimized: same-rail traffic stays on its leaf, cross-rail goes through the spine", "[platform]") {
  // 2 nodes x 2 devices; NVSwitch inside a node (1 us), rail-optimized IB between (2 us),
  // radix 4 -> 2 NIC ports per leaf, so each rail's two NICs fill one leaf; oversubscribed 1.5:1
  // so that leaf uplinks exist (a non-blocking tree has none):
  /*
                    [ spine ]
                   /         \
           leaf0_up           leaf1_up
        [rail-0 leaf]      [rail-1 leaf]
          /      \           /      \
       nic0     nic2      nic1     nic3
       node0    node1     node0    node1
  */
  TierSpec ib = make_tier("ib", Topology::kRailOptimized, 0, 50e9, 2e-6);
  ib.switch_radix = 4;
  ib.oversubscription = 1.5;
  const PlatformSpec spec = make_platform({make_tier("nvlink", Topology::kNvswitch, 2, 450e9, 1e-6), ib});
  const std::string text = in_simulation(spec, 4, [](const BuiltPlatform& p) {
    return describe_route(p.hosts[0], p.hosts[1]) + "\n" + describe_route(p.hosts[0], p.hosts[2]) + "\n" +
           describe_route(p.hosts[0], p.hosts[3]);
  });
  CHECK(text ==
        "nvlink_port0_UP nvlink_port1_DOWN | 1e-06\n"
        "ib_nic0_UP ib_nic2_DOWN | 2e-06\n"
        "ib_nic0_UP ib_leaf0_up_UP ib_leaf1_up_DOWN ib_nic3_DOWN | 2e-06");
}

TEST_CASE("a clos tier is a crossbar of device ports with the tier latency end to end", "[platform]") {
  // 8 NPUs on a unified-bus Clos (one domain), 2 us; a RoCE tier above joins two such domains.
  //   [ UB Clos, domain 0 ]                 [ UB Clos, domain 1 ]
  //   dev0 ... dev7 (one port each)         dev8 ... dev15
  const PlatformSpec spec = make_platform(
      {make_tier("ub", Topology::kClos, 8, 196e9, 2e-6), make_tier("roce", Topology::kFatTree, 0, 25e9, 4e-6)});
  const std::string text = in_simulation(spec, 16, [](const BuiltPlatform& p) {
    return describe_route(p.hosts[0], p.hosts[7]) + "\n" + describe_route(p.hosts[7], p.hosts[8]);
  });
  // Inside a domain: two ports, 1 us each. Across domains: the RoCE tier (radix 64 holds all
  // 16 NICs on one leaf), its two NICs, 2 us each.
  CHECK(text ==
        "ub_port0_UP ub_port7_DOWN | 2e-06\n"
        "roce_nic7_UP roce_nic8_DOWN | 4e-06");
}
