// A multi-node all-to-all replayed in step and bulk mode: the same time, and the NICs carry the
// bytes the real pattern puts on them (every pair's bytes over its own route).
#include <catch2/catch.hpp>
#include <sstream>

#include "sim/core/child_process.hpp"
#include "sim/replay/engine.hpp"
#include "tests/support/tiny_run.hpp"

using namespace trainsim;
using namespace trainsim::test;

namespace {

constexpr double kNvlink = 400e9;  // bytes/s per device port inside a node
constexpr double kNic = 25e9;      // bytes/s per device NIC
constexpr double kAlpha = 2e-6;    // seconds, both tiers

// Two nodes of 4 devices (NVSwitch island + non-blocking fat tree, one NIC per device); one
// expert-parallel group of all 8 devices (ep = dp = 8).
RunSpec two_node_ep_run() {
  RunSpec run = island_run(8, kNvlink, kAlpha);
  run.platform.tiers[0].domain_size = 4;
  TierSpec net;
  net.name = "net";
  net.topology = Topology::kFatTree;
  net.domain_size = 0;
  net.bandwidth = kNic;
  net.latency = kAlpha;
  run.platform.tiers.push_back(net);
  run.strategy.dp = 8;
  run.strategy.ep = 8;
  return run;
}

struct AllToAllResult {
  double time = 0;       // seconds
  double nic_bytes = 0;  // bytes leaving devices through their NICs, all NICs together
};

AllToAllResult all_to_all(double bytes, CollectiveMode mode) {
  const std::string out = call_in_child([&] {
    const RunSpec run = two_node_ep_run();
    RunGraph g;
    g.stages.emplace_back(0);
    Task t = collective(g.stages[0], CollectiveKind::kAllToAll, Dim::kEp, bytes);
    t.stream = Stream::kEp;
    g.stages[0].add(t);
    ReplayOptions options;
    options.collectives = mode;
    options.link_stats = true;
    const Timeline tl = replay(run, g, Mesh(run.strategy), options);
    double nic = 0;
    for (const LinkStat& l : tl.links)
      if (l.name.find("nic") != std::string::npos && l.name.size() > 3 && l.name.substr(l.name.size() - 3) == "_UP")
        nic += l.bytes;
    std::ostringstream s;
    s.precision(17);
    s << tl.iteration_time << " " << nic;
    return s.str();
  });
  std::istringstream in(out);
  AllToAllResult r;
  in >> r.time >> r.nic_bytes;
  return r;
}

}  // namespace

TEST_CASE("a two-node all-to-all puts every pair's bytes on the NICs in bulk and step mode alike", "[replay]") {
  // Each of the 8 members sends S/8 to each of the 7 others; 4 of them sit on the other node, so
  // each member's NIC sends 4 S/8 = S/2 and the 8 NICs together 4 S. (SimGrid's link-load plugin
  // integrates a link's usage and counts up to alpha * beta = 50 kB more per flow: 32 cross-node
  // flows add at most 1.6 MB to 3.2 GB, hence the 1e-3 tolerance on bytes.)
  const double S = 800e6;
  const AllToAllResult step = all_to_all(S, CollectiveMode::kStep);
  const AllToAllResult bulk = all_to_all(S, CollectiveMode::kBulk);
  CHECK(step.nic_bytes == Approx(4 * S).epsilon(1e-3));
  CHECK(bulk.nic_bytes == Approx(4 * S).epsilon(1e-3));
  // All 7 flows of a member start together; the 4 remote ones share its NIC: S/2 / 25 GB/s =
  // 16 ms plus one latency (the 3 local ones, S/8 at 400 GB/s each, end long before).
  CHECK(bulk.time == Approx(S / 2 / kNic + kAlpha).epsilon(1e-6));
  CHECK(bulk.time == Approx(step.time).epsilon(0.01));
}
