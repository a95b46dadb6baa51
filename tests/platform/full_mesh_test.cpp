#include <catch2/catch.hpp>

#include <simgrid/s4u/Host.hpp>

#include "tests/platform/platform_fixture.hpp"

using namespace trainsim;
using namespace trainsim::testing;

namespace {

// Two HCCS servers of 4 devices each (full mesh, 56 GB/s per link and direction, 2 us), joined
// by a one-switch scale-out tier:
//
//   server 0:  dev0 --- dev1      server 1:  dev4 --- dev5
//               | \   / |                     | \   / |
//               |  \ /  |                     |  \ /  |       (6 pairwise links each)
//               |  / \  |                     |  / \  |
//              dev2 --- dev3                 dev6 --- dev7
PlatformSpec two_hccs_servers() {
  TierSpec hccs = make_tier("hccs", Topology::kFullMesh, 4, 168e9, 2e-6);
  hccs.link_bandwidth = 56e9;
  return make_platform({hccs, make_tier("roce", Topology::kFatTree, 0, 25e9, 5e-6)});
}

}  // namespace

TEST_CASE("a full-mesh transfer crosses only the pair's own link, at the tier latency", "[platform]") {
  const std::string text = in_simulation(two_hccs_servers(), 8, [](const BuiltPlatform& p) {
    return describe_route(p.hosts[1], p.hosts[3]) + "\n" + describe_route(p.hosts[3], p.hosts[1]) + "\n" +
           describe_route(p.hosts[7], p.hosts[5]);
  });
  // Link (1,3) is used UP from the lower rank, DOWN from the higher; server 1's links are
  // named by global rank. One link carries the whole 2 us.
  CHECK(text ==
        "hccs_mesh1_3_UP | 2e-06\n"
        "hccs_mesh1_3_DOWN | 2e-06\n"
        "hccs_mesh5_7_DOWN | 2e-06");
}

TEST_CASE("full-mesh transfers from one device to three peers do not share bandwidth", "[platform]") {
  // Each flow has its own 56 GB/s link: T = 2e-6 + 5.6e8 / 5.6e10 = 2e-6 + 1e-2 s for all three.
  const std::string text = in_simulation(two_hccs_servers(), 8, [](const BuiltPlatform& p) {
    return run_flows({{p.hosts[0], p.hosts[1], 5.6e8}, {p.hosts[0], p.hosts[2], 5.6e8}, {p.hosts[0], p.hosts[3], 5.6e8}});
  });
  for (double t : parse_numbers(text)) CHECK(t == Approx(2e-6 + 1e-2).epsilon(1e-9));
}

TEST_CASE("a full mesh without link_bandwidth is a config error naming the key", "[platform]") {
  PlatformSpec spec = two_hccs_servers();
  spec.tiers[0].link_bandwidth = 0;
  CHECK_THROWS_WITH(in_simulation(spec, 8, [](const BuiltPlatform&) { return std::string(); }),
                    Catch::Contains("tiers.0.link_bandwidth"));
}
