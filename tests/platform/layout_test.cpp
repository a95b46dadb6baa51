#include <catch2/catch.hpp>

#include <simgrid/s4u/Link.hpp>

#include "sim/core/error.hpp"
#include "tests/platform/platform_fixture.hpp"

using namespace trainsim;
using namespace trainsim::testing;

namespace {

PlatformSpec dgx_like() {
  return make_platform(
      {make_tier("nvlink", Topology::kNvswitch, 8, 450e9, 1e-6), make_tier("ib", Topology::kRailOptimized, 0, 50e9, 2e-6)});
}

}  // namespace

TEST_CASE("tier_between picks the innermost tier whose domain holds both ranks", "[platform]") {
  // Nodes of 8: ranks 0..7 share node 0, rank 8 is on node 1.
  const PlatformSpec spec = dgx_like();
  CHECK(tier_between(spec, 32, 0, 7) == 0);
  CHECK(tier_between(spec, 32, 9, 15) == 0);
  CHECK(tier_between(spec, 32, 7, 8) == 1);
  CHECK(tier_between(spec, 32, 3, 31) == 1);
}

TEST_CASE("tiers that do not nest, or do not join all devices, are config errors", "[platform]") {
  PlatformSpec spec = dgx_like();
  spec.tiers[1].domain_size = 12;  // not a multiple of 8, and not all 32 devices
  CHECK_THROWS_WITH(tier_between(spec, 32, 0, 1), Catch::Contains("tiers.1.domain_size"));
  spec.tiers[1].domain_size = 16;  // nests, but leaves two islands of 16
  CHECK_THROWS_WITH(tier_between(spec, 32, 0, 1), Catch::Contains("outermost tier must join all 32"));
  spec = dgx_like();
  spec.max_devices = 16;
  CHECK_THROWS_AS(tier_between(spec, 32, 0, 1), UserError);
}

TEST_CASE("every link is listed once per direction with its tier", "[platform]") {
  // 16 devices = 2 nodes of 8: 16 NVLink ports + 16 NICs. Rail-optimized gives each of the 8
  // rails its own leaf (holding the two nodes' rail-k NICs); the tree is non-blocking, so no
  // uplink joins the leaves (switched_tree.hpp). Two directions each, plus the loopback:
  //   nvlink 2*16 = 32; ib 2*16 = 32; total 32 + 32 + 1 = 65.
  const std::string text = in_simulation(dgx_like(), 16, [](const BuiltPlatform& p) {
    int nvlink = 0, ib = 0, loopback = 0, mislabelled = 0;
    for (const PlatformLink& l : p.links) {
      const std::string name = l.link->get_name();
      const std::string tier = l.tier < 0 ? "" : p.tier_names[static_cast<size_t>(l.tier)];
      if (l.tier == 0) ++nvlink;
      if (l.tier == 1) ++ib;
      if (l.tier == -1) ++loopback;
      if (l.tier >= 0 && name.rfind(tier + "_", 0) != 0) ++mislabelled;
    }
    return std::to_string(p.links.size()) + " " + std::to_string(nvlink) + " " + std::to_string(ib) + " " +
           std::to_string(loopback) + " " + std::to_string(mislabelled) + " " + std::to_string(p.node_size);
  });
  CHECK(text == "65 32 32 1 0 8");
}

TEST_CASE("the topology list names every topology the YAML accepts", "[platform]") {
  std::vector<std::string> names;
  for (const TopologyDescription& t : list_topologies()) {
    names.push_back(t.name);
    CHECK_FALSE(t.description.empty());
  }
  CHECK(names == std::vector<std::string>{"nvswitch", "full_mesh", "fat_tree", "rail_optimized", "clos"});
}
