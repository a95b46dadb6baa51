// full_mesh: a direct split-duplex link of `link_bandwidth` (per direction) between every pair
// of devices in a domain, as HCCS joins the 8 NPUs of an Ascend 910B server (each NPU has 7
// links; `bandwidth` in the YAML is their sum and is not used for wiring). A transfer a -> b
// crosses only the (a, b) link, which carries the whole tier latency. `planes` multiplies the
// link bandwidth. There is no switch, so no in-network reduction endpoint.
//
// Example, a domain of 4 devices (6 links):
//   d0 ---- d1
//   | \    / |
//   |  \  /  |
//   |   \/   |
//   |   /\   |
//   |  /  \  |
//   | /    \ |
//   d2 ---- d3
#include <algorithm>

#include "sim/core/error.hpp"
#include "sim/platform/fabric.hpp"
#include "sim/platform/tier_layout.hpp"
#include "sim/platform/topology_registry.hpp"

namespace trainsim {
namespace {

// Pairwise links create n(n-1)/2 links per domain; beyond this the mesh is not a plausible
// scale-up fabric and would cost too much memory.
constexpr int kMaxMeshDomain = 256;

class FullMeshFabric : public TierFabric {
 public:
  explicit FullMeshFabric(const TierContext& ctx) : domain_size_(ctx.domain_size), devices_(ctx.devices) {
    const TierSpec& tier = ctx.tier();
    require_positive(ctx, "link_bandwidth", tier.link_bandwidth, "the bandwidth of one pairwise link, e.g. 56GBps");
    if (ctx.domain_size > kMaxMeshDomain)
      throw ConfigError(ctx.spec->source_file, 0, tier_key(ctx.tier_index, "domain_size"),
                        "a full mesh joins at most " + std::to_string(kMaxMeshDomain) + " devices",
                        std::to_string(ctx.domain_size), "a smaller domain, or a switched topology");
    const double bandwidth = tier.link_bandwidth * tier.planes;
    for (int d = 0; d < ctx.domain_count(); ++d) {
      const int first = d * ctx.domain_size;
      const int n = ctx.devices_in_domain(d);
      domain_base_.push_back(links_.size());
      for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
          links_.push_back(ctx.catalog->duplex(
              ctx.link_name("mesh" + std::to_string(first + i) + "_" + std::to_string(first + j)), bandwidth,
              tier.latency, ctx.tier_index, "mesh"));
    }
  }

  void append_route(int a, int b, std::vector<simgrid::s4u::Link*>& links) const override {
    const int lo = std::min(a, b);
    const int hi = std::max(a, b);
    const int d = lo / domain_size_;
    const int i = lo - d * domain_size_;
    const int j = hi - d * domain_size_;
    // Pairs (i, j), i < j, are stored row by row: row i starts after sum_{k<i} (n-1-k) pairs.
    const int n = std::min(domain_size_, devices_ - d * domain_size_);  // the last domain may be partial
    const size_t index = domain_base_[static_cast<size_t>(d)] + static_cast<size_t>(i * (2 * n - i - 1) / 2 + (j - i - 1));
    const DuplexLink& link = links_[index];
    links.push_back(a < b ? link.up : link.down);
  }

  [[nodiscard]] bool private_pairs() const override { return true; }
  [[nodiscard]] bool has_switch() const override { return false; }
  void append_switch_route(int, bool, std::vector<simgrid::s4u::Link*>&) const override {}

 private:
  int domain_size_;
  int devices_;
  std::vector<size_t> domain_base_;  // index of each domain's first pair in links_
  std::vector<DuplexLink> links_;
};

}  // namespace

TopologyInfo full_mesh_topology() {
  return TopologyInfo{
      Topology::kFullMesh, "full_mesh",
      "full mesh (HCCS-like): a dedicated link of `link_bandwidth` per direction between every pair of "
      "devices in the domain",
      [](const TierContext& ctx) -> std::unique_ptr<TierFabric> { return std::make_unique<FullMeshFabric>(ctx); }};
}

}  // namespace trainsim
