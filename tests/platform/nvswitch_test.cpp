#include <catch2/catch.hpp>

#include <simgrid/s4u/Host.hpp>

#include "tests/platform/platform_fixture.hpp"

using namespace trainsim;
using namespace trainsim::testing;

namespace {

// One NVSwitch domain of 4 devices, H100-like port bandwidth (450 GB/s per direction) and an
// end-to-end latency of 1 us:
//
//              [ NVSwitch ]
//      port0 /  port1 |  port2 | \ port3        each port: split-duplex, 450 GB/s, 0.5 us
//         dev0      dev1      dev2   dev3
PlatformSpec one_nvswitch_domain() {
  return make_platform({make_tier("nvlink", Topology::kNvswitch, 0, 450e9, 1e-6)});
}

}  // namespace

TEST_CASE("an nvswitch transfer crosses the source port up and the destination port down, at the tier latency",
          "[platform]") {
  const std::string text = in_simulation(one_nvswitch_domain(), 4, [](const BuiltPlatform& p) {
    return describe_route(p.hosts[0], p.hosts[3]) + "\n" + describe_route(p.hosts[2], p.hosts[1]);
  });
  // Two links, 0.5 us each: 1e-06 s end to end.
  CHECK(text ==
        "nvlink_port0_UP nvlink_port3_DOWN | 1e-06\n"
        "nvlink_port2_UP nvlink_port1_DOWN | 1e-06");
}

TEST_CASE("one nvswitch transfer of S bytes takes alpha + S/beta exactly", "[platform]") {
  // alpha = 1 us, beta = 450 GB/s, S = 1 GB = 1e9 bytes:
  //   T = 1e-6 + 1e9 / 4.5e11 = 1e-6 + 2.2222...e-3 = 2.2232222...e-3 s.
  // (SimGrid's default LV08 model would give 13.01 us + S/(0.97 beta) = 2.304 ms.)
  const std::string text = in_simulation(one_nvswitch_domain(), 4, [](const BuiltPlatform& p) {
    return run_flows({{p.hosts[0], p.hosts[1], 1e9}});
  });
  const std::vector<double> times = parse_numbers(text);
  REQUIRE(times.size() == 1);
  CHECK(times[0] == Approx(1e-6 + 1e9 / 450e9).epsilon(1e-9));
}

TEST_CASE("two flows into one nvswitch port share it, flows to different ports do not", "[platform]") {
  // dev0 -> dev2 and dev1 -> dev2 share port2_DOWN: 450/2 GB/s each, T = 1e-6 + 2 * 1e9 / 4.5e11.
  // dev3 -> dev0 uses port3_UP and port0_DOWN alone: T = 1e-6 + 1e9 / 4.5e11.
  const std::string text = in_simulation(one_nvswitch_domain(), 4, [](const BuiltPlatform& p) {
    return run_flows({{p.hosts[0], p.hosts[2], 1e9}, {p.hosts[1], p.hosts[2], 1e9}, {p.hosts[3], p.hosts[0], 1e9}});
  });
  const std::vector<double> t = parse_numbers(text);
  REQUIRE(t.size() == 3);
  CHECK(t[0] == Approx(1e-6 + 2e9 / 450e9).epsilon(1e-9));
  CHECK(t[1] == Approx(1e-6 + 2e9 / 450e9).epsilon(1e-9));
  CHECK(t[2] == Approx(1e-6 + 1e9 / 450e9).epsilon(1e-9));
}

TEST_CASE("an nvswitch with in-network reduction has a switch endpoint one port away, at the tier latency",
          "[platform]") {
  PlatformSpec spec = one_nvswitch_domain();
  spec.tiers[0].in_network_reduction = true;
  const std::string text = in_simulation(spec, 4, [](const BuiltPlatform& p) {
    if (p.switch_host(0, 3) == nullptr) return std::string("no switch");
    return describe_route(p.hosts[3], p.switch_host(0, 3)) + "\n" + describe_route(p.switch_host(0, 3), p.hosts[1]);
  });
  // Up to the switch: port3_UP (0.5 us) then the switch's fat pipe (0.5 us); down: the fat
  // pipe then port1_DOWN. 1 us each way, like device-to-device routes, so CM02 (which weighs
  // flows by route latency) shares a port fairly between NVLS and point-to-point flows.
  CHECK(text ==
        "nvlink_port3_UP nvlink_switch0_core | 1e-06\n"
        "nvlink_switch0_core nvlink_port1_DOWN | 1e-06");
}

TEST_CASE("a flow to the switch and a point-to-point flow share a port equally", "[platform]") {
  // dev0 -> switch and dev0 -> dev1 both leave through port0_UP (450 GB/s). Both routes take
  // 1 us, so CM02 gives each half: T = 1e-6 + 1e9 / 2.25e11 for both. (Had the switch route
  // only 0.5 us, CM02 would give it 2/3 of the port.)
  PlatformSpec spec = one_nvswitch_domain();
  spec.tiers[0].in_network_reduction = true;
  const std::string text = in_simulation(spec, 4, [](const BuiltPlatform& p) {
    return run_flows({{p.hosts[0], p.switch_host(0, 0), 1e9}, {p.hosts[0], p.hosts[1], 1e9}});
  });
  const std::vector<double> t = parse_numbers(text);
  REQUIRE(t.size() == 2);
  CHECK(t[0] == Approx(1e-6 + 1e9 / 2.25e11).epsilon(1e-9));
  CHECK(t[1] == Approx(1e-6 + 1e9 / 2.25e11).epsilon(1e-9));
}
