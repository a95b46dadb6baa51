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
  PlatformRouter(std::vector<int> domain_sizes, std::vector<std::unique_ptr<TierFabric>> fabrics,
                 simgrid::s4u::Link* loopback)
      : sizes_(std::move(domain_sizes)), fabrics_(std::move(fabrics)), loopback_(loopback) {}
  void add_endpoint(unsigned long netpoint_id, Endpoint endpoint);
  void route(unsigned long src, unsigned long dst, std::vector<simgrid::s4u::Link*>& links) const override;

 private:
  [[nodiscard]] const Endpoint& endpoint(unsigned long netpoint_id) const;
  std::vector<int> sizes_;
  std::vector<std::unique_ptr<TierFabric>> fabrics_;
  simgrid::s4u::Link* loopback_;
  std::vector<Endpoint> endpoints_;  // by netpoint id
};

}  // namespace trainsim
