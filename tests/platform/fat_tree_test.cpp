#include <catch2/catch.hpp>

#include <sstream>

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
  // Radix 4: 2 NIC ports per leaf at any o; o = 3: uplink 2 * 50 / 3 = 33.3 GB/s.
  // Leaf0 = dev0, dev1; leaf1 = dev2, dev3. Two flows leaf0 -> leaf1 share the uplink:
  //   T = 2e-6 + 1e8 / (1e11 / 3 / 2) = 2e-6 + 6e-3 s each.
  const std::string text = in_simulation(small_fat_tree(3.0), 6, [](const BuiltPlatform& p) {
    return describe_route(p.hosts[0], p.hosts[1]) + "\n" + describe_route(p.hosts[1], p.hosts[2]) + "\n" +
           run_flows({{p.hosts[0], p.hosts[2], 1e8}, {p.hosts[1], p.hosts[3], 1e8}});
  });
  std::istringstream lines(text);
  std::string same_leaf, across, times;
  std::getline(lines, same_leaf);
  std::getline(lines, across);
  std::getline(lines, times);
  CHECK(same_leaf == "ib_nic0_UP ib_nic1_DOWN | 2e-06");  // dev0, dev1 on one leaf
  CHECK(across == "ib_nic1_UP ib_leaf0_up_UP ib_leaf1_up_DOWN ib_nic2_DOWN | 2e-06");  // dev2 on the next
  for (double t : parse_numbers(times)) CHECK(t == Approx(2e-6 + 6e-3).epsilon(1e-9));
}

TEST_CASE("oversubscription sizes only the leaf uplink: leaves hold radix/2 NICs and time grows with o", "[platform]") {
  // Radix 8: a leaf holds radix / 2 = 4 NICs at 1:1, 4:1 and 8:1 alike (before, floor(8 o / (1 + o))
  // put 4, 6 and 7 NICs on a leaf: at 4:1 and 8:1 dev4 shared dev0's leaf and skipped the uplink).
  // Leaf0 = dev0-3, leaf1 = dev4-7; flows dev i -> dev i+4 (i = 0..3), 1e8 bytes each, 50 GB/s NICs.
  //   1:1  no uplink (it would carry 4 x 50 GB/s, never binding): NIC-bound, T = 2e-6 + 1e8/5e10 = 2e-6 + 2e-3
  //   4:1  uplink 4 x 50 / 4 = 50 GB/s shared by 4 flows: T = 2e-6 + 1e8/1.25e10 = 2e-6 + 8e-3
  //   8:1  uplink 4 x 50 / 8 = 25 GB/s shared by 4 flows: T = 2e-6 + 1e8/6.25e9 = 2e-6 + 16e-3
  const std::vector<std::pair<double, double>> cases = {{1.0, 2e-3}, {4.0, 8e-3}, {8.0, 16e-3}};
  double previous = 0;
  for (const auto& [o, transfer] : cases) {
    INFO("oversubscription " << o);
    TierSpec ib = make_tier("ib", Topology::kFatTree, 0, 50e9, 2e-6);
    ib.switch_radix = 8;
    ib.oversubscription = o;
    const std::string text = in_simulation(make_platform({ib}), 8, [](const BuiltPlatform& p) {
      std::string uplinks;
      for (const PlatformLink& l : p.links)
        if (std::string(l.role) == "leaf_uplink")
          uplinks += std::string(l.link->get_name()) + "=" + std::to_string(l.link->get_bandwidth()) + " ";
      return describe_route(p.hosts[3], p.hosts[4]) + "\n" + uplinks + "\n" +
             run_flows({{p.hosts[0], p.hosts[4], 1e8}, {p.hosts[1], p.hosts[5], 1e8}, {p.hosts[2], p.hosts[6], 1e8},
                        {p.hosts[3], p.hosts[7], 1e8}});
    });
    std::istringstream lines(text);
    std::string route, uplinks, times;
    std::getline(lines, route);
    std::getline(lines, uplinks);
    std::getline(lines, times);
    if (o == 1.0) {
      CHECK(route == "ib_nic3_UP ib_nic4_DOWN | 2e-06");
      CHECK(uplinks.empty());
    } else {
      CHECK(route == "ib_nic3_UP ib_leaf0_up_UP ib_leaf1_up_DOWN ib_nic4_DOWN | 2e-06");  // dev3 | dev4: two leaves
      const std::string capacity = std::to_string(4 * 50e9 / o);
      CHECK(uplinks == "ib_leaf0_up_UP=" + capacity + " ib_leaf0_up_DOWN=" + capacity + " ib_leaf1_up_UP=" + capacity +
                           " ib_leaf1_up_DOWN=" + capacity + " ");
    }
    const std::vector<double> t = parse_numbers(times);
    REQUIRE(t.size() == 4);
    for (double v : t) CHECK(v == Approx(2e-6 + transfer).epsilon(1e-9));
    CHECK(t[0] >= previous);  // monotone non-decreasing in the oversubscription
    previous = t[0];
  }
}
