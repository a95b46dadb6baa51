#include <catch2/catch.hpp>

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include "tests/platform/platform_fixture.hpp"

using namespace trainsim;
using namespace trainsim::testing;

namespace {

// Single-tier fat tree, one device per NIC, 50 GB/s NICs, 2 us, radix-4 switches: at o = 1
// and o = 1.5 leaves have floor(4 o / (1 + o)) = 2 NIC ports; at o = 1.5 a 2 * 50 / 1.5 GB/s
// uplink joins each leaf to the spine, at o = 1 none (it could never bind: switched_tree.hpp).
/*
                 [ spine ]
                /         \
       leaf0_up             leaf1_up
        [leaf0]              [leaf1]
        /     \              /     \
     nic0     nic1        nic2     nic3
     dev0     dev1        dev2     dev3
*/
PlatformSpec small_fat_tree(double oversubscription) {
  TierSpec ib = make_tier("ib", Topology::kFatTree, 0, 50e9, 2e-6);
  ib.switch_radix = 4;
  ib.oversubscription = oversubscription;
  return make_platform({ib});
}

}  // namespace

TEST_CASE("a fat-tree transfer turns at the lowest shared switch, always at the tier latency", "[platform]") {
  const std::string text = in_simulation(small_fat_tree(1.5), 4, [](const BuiltPlatform& p) {
    return describe_route(p.hosts[0], p.hosts[1]) + "\n" + describe_route(p.hosts[0], p.hosts[2]);
  });
  // Same leaf: 2 NIC links (1 us each). Across leaves: NIC, leaf0 uplink up, leaf1 uplink
  // down, NIC; uplinks add no latency, so both routes take 2 us.
  CHECK(text ==
        "ib_nic0_UP ib_nic1_DOWN | 2e-06\n"
        "ib_nic0_UP ib_leaf0_up_UP ib_leaf1_up_DOWN ib_nic2_DOWN | 2e-06");
}

TEST_CASE("a non-blocking fat tree has no uplinks: a cross-leaf transfer crosses only the two NICs", "[platform]") {
  // o = 1: a leaf uplink would carry at least the 2 x 50 GB/s of its NICs, more than their flows
  // can send, so none is built and dev0 -> dev2 crosses nic0 up and nic2 down only (2 us).
  const std::string text = in_simulation(small_fat_tree(1.0), 4, [](const BuiltPlatform& p) {
    std::string uplinks;
    for (const PlatformLink& l : p.links)
      if (std::string(l.role).find("uplink") != std::string::npos) uplinks += l.link->get_name();
    return describe_route(p.hosts[0], p.hosts[2]) + "|" + uplinks;
  });
  CHECK(text == "ib_nic0_UP ib_nic2_DOWN | 2e-06|");
}

TEST_CASE("two concurrent flows sharing a NIC each get half its bandwidth", "[platform]") {
  // dev0 -> dev1 and dev0 -> dev2 both leave through nic0_UP (50 GB/s). Each gets 25 GB/s:
  //   T = 2e-6 + 1e8 / 2.5e10 = 2e-6 + 4e-3 s.
  const std::string text = in_simulation(small_fat_tree(1.0), 4, [](const BuiltPlatform& p) {
    return run_flows({{p.hosts[0], p.hosts[1], 1e8}, {p.hosts[0], p.hosts[2], 1e8}});
  });
  const std::vector<double> t = parse_numbers(text);
  REQUIRE(t.size() == 2);
  CHECK(t[0] == Approx(2e-6 + 4e-3).epsilon(1e-9));
  CHECK(t[1] == Approx(2e-6 + 4e-3).epsilon(1e-9));
}

TEST_CASE("devices sharing a NIC share its devices_per_nic * bandwidth", "[platform]") {
  // Two nodes of 2 devices (NVSwitch inside), one NIC per node (devices_per_nic = 2):
  // NIC = 2 * 50 = 100 GB/s. dev0 -> dev2 and dev1 -> dev3 share nic0_UP and nic1_DOWN,
  // 50 GB/s each: T = 2e-6 + 1e8 / 5e10 = 2e-6 + 2e-3 s.
  TierSpec ib = make_tier("ib", Topology::kFatTree, 0, 50e9, 2e-6);
  ib.devices_per_nic = 2;
  const PlatformSpec spec = make_platform({make_tier("nvlink", Topology::kNvswitch, 2, 450e9, 1e-6), ib});
  const std::string text = in_simulation(spec, 4, [](const BuiltPlatform& p) {
    return describe_route(p.hosts[1], p.hosts[3]) + "\n" +
           run_flows({{p.hosts[0], p.hosts[2], 1e8}, {p.hosts[1], p.hosts[3], 1e8}});
  });
  const size_t newline = text.find('\n');
  CHECK(text.substr(0, newline) == "ib_nic0_UP ib_nic1_DOWN | 2e-06");
  for (double t : parse_numbers(text.substr(newline + 1))) CHECK(t == Approx(2e-6 + 2e-3).epsilon(1e-9));
}

TEST_CASE("an oversubscribed leaf uplink caps traffic leaving the leaf", "[platform]") {
  // Radix 4, o = 3: floor(4 * 3/4) = 3 NIC ports per leaf, uplink 3 * 50 / 3 = 50 GB/s.
  // Leaf0 = dev0..2, leaf1 = dev3..5. Three flows leaf0 -> leaf1 share the 50 GB/s uplink:
  //   T = 2e-6 + 1e8 / (5e10 / 3) = 2e-6 + 6e-3 s each.
  const std::string text = in_simulation(small_fat_tree(3.0), 6, [](const BuiltPlatform& p) {
    return describe_route(p.hosts[0], p.hosts[1]) + "\n" +
           run_flows({{p.hosts[0], p.hosts[3], 1e8}, {p.hosts[1], p.hosts[4], 1e8}, {p.hosts[2], p.hosts[5], 1e8}});
  });
  const size_t newline = text.find('\n');
  CHECK(text.substr(0, newline) == "ib_nic0_UP ib_nic1_DOWN | 2e-06");  // dev0, dev1 on one leaf
  for (double t : parse_numbers(text.substr(newline + 1))) CHECK(t == Approx(2e-6 + 6e-3).epsilon(1e-9));
}
