// Routes between the endpoints of the platform zone: devices (by rank) and the switch
// endpoints of tiers with in-network reduction. Internal to sim/platform.
#pragma once
#include <memory>
#include <vector>

#include "sim/platform/computed_zone.hpp"
#include "sim/platform/fabric.hpp"

namespace trainsim {

struct Endpoint {
  int rank = -1;         // the device, or any device of the switch's domain
  int switch_tier = -1;  // -1 for a device; else the tier whose switch this endpoint is
  // For a switch: a non-shared link holding the other half of the tier latency, so that
  // device <-> switch routes take the full tier latency like device <-> device routes (CM02
  // shares a link between flows in inverse proportion to their route latency).
  simgrid::s4u::Link* switch_core = nullptr;
};

class PlatformRouter : public RouteProvider {
 public:
  // link_owner: see build_platform (empty = every rank owns its links).
  PlatformRouter(std::vector<int> domain_sizes, std::vector<std::unique_ptr<TierFabric>> fabrics,
                 simgrid::s4u::Link* loopback, std::vector<int> link_owner)
      : sizes_(std::move(domain_sizes)), fabrics_(std::move(fabrics)), loopback_(loopback),
        owner_(std::move(link_owner)) {}
  void add_endpoint(unsigned long netpoint_id, Endpoint endpoint);
  void route(unsigned long src, unsigned long dst, std::vector<simgrid::s4u::Link*>& links) const override;

 private:
  [[nodiscard]] const Endpoint& endpoint(unsigned long netpoint_id) const;
  [[nodiscard]] int owner(int rank) const { return owner_.empty() ? rank : owner_[static_cast<size_t>(rank)]; }
  std::vector<int> sizes_;
  std::vector<std::unique_ptr<TierFabric>> fabrics_;
  simgrid::s4u::Link* loopback_;
  std::vector<int> owner_;           // by rank: whose endpoint links its transfers cross
  std::vector<Endpoint> endpoints_;  // by netpoint id
};

}  // namespace trainsim
