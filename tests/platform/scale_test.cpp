#include <catch2/catch.hpp>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>

#include "sim/core/child_process.hpp"
#include "tests/platform/platform_fixture.hpp"

using namespace trainsim;
using namespace trainsim::testing;

namespace {

// Peak resident memory of this process, kB (Linux).
long peak_rss_kb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

}  // namespace

TEST_CASE("16,384 devices (2048 DGX nodes on rail-optimized IB) build in well under 10 s", "[platform][scale]") {
  // 2048 nodes x 8 GPUs; radix 64, o = 1.05 (uplinks exist only above 1:1): floor(64 x 1.05 /
  // 2.05) = 32 NICs per leaf, 2048 / 32 = 64 leaves per rail, 8 rails = 512 leaves > 64, so pods
  // of 32 leaves (16 pods) sit between leaves and the top.
  TierSpec ib = make_tier("ib", Topology::kRailOptimized, 0, 50e9, 2e-6);
  ib.oversubscription = 1.05;
  const PlatformSpec spec = make_platform({make_tier("nvlink", Topology::kNvswitch, 8, 450e9, 1e-6), ib});
  const std::string text = call_in_child([&]() {
    static char program[] = "trainsim_tests";
    static char quiet[] = "--log=root.thres:critical";
    char* argv[] = {program, quiet, nullptr};
    int argc = 2;
    const long rss_before = peak_rss_kb();
    simgrid::s4u::Engine engine(&argc, argv);
    configure_network(engine);
    const auto start = std::chrono::steady_clock::now();
    const BuiltPlatform p = build_platform(spec, 16384);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char buffer[128];
    std::snprintf(buffer, sizeof buffer, "%.3f %ld %zu ", seconds, peak_rss_kb() - rss_before, p.links.size());
    // Rail 0 of node 0 to rail 7 of node 2047: NIC, leaf, pod uplinks up and down, NIC.
    return std::string(buffer) + describe_route(p.hosts[0], p.hosts[16383]);
  });
  WARN("build seconds, extra peak RSS kB, links, route: " << text);
  const std::vector<double> head = parse_numbers(text.substr(0, text.find(" ib_")));
  REQUIRE(head.size() == 3);
  CHECK(head[0] < 10.0);
  // Links: 16384 ports + 16384 NICs + 512 leaf uplinks + 16 pod uplinks, 2 directions each,
  // plus the loopback: 2 * (16384 + 16384 + 512 + 16) + 1 = 66593.
  CHECK(head[2] == 66593);
  // Node 0's rail-0 NIC sits on leaf 0 (rail 0, unit 0) in pod 0; node 2047's rail-7 NIC on
  // leaf 7 * 64 + 2047 / 32 = 511 in pod 511 / 32 = 15.
  CHECK(text.substr(text.find(" ib_") + 1) ==
        "ib_nic0_UP ib_leaf0_up_UP ib_agg0_up_UP ib_agg15_up_DOWN ib_leaf511_up_DOWN ib_nic16383_DOWN | 2e-06");
}
