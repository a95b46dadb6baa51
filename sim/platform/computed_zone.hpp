// A SimGrid netzone whose routes are computed on demand instead of stored per pair. SimGrid's
// own zones either store routes (Full/Floyd/Dijkstra: O(n^2) at 16k hosts) or fix one shape
// (fat-tree/torus/dragonfly zones: uniform links, hop-dependent latency). trainsim's tiers
// need per-tier links and an exact end-to-end latency per tier, so the zone subclasses
// SimGrid 3.32's kernel NetZoneImpl (installed header simgrid/kernel/routing/NetZoneImpl.hpp)
// and asks a RouteProvider for the links between two endpoints. This is the only file that
// depends on SimGrid's kernel routing API (renamed in SimGrid 4.0). Internal to sim/platform.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <simgrid/kernel/routing/NetZoneImpl.hpp>

namespace trainsim {

class RouteProvider {
 public:
  virtual ~RouteProvider() = default;
  // Appends, in order, the links from the endpoint with netpoint id `src` to `dst` (src != dst
  // unless a loopback is wanted). The route's latency is the sum of the links' latencies.
  virtual void route(unsigned long src, unsigned long dst, std::vector<simgrid::s4u::Link*>& links) const = 0;
};

class ComputedZone final : public simgrid::kernel::routing::NetZoneImpl {
 public:
  explicit ComputedZone(const std::string& name) : NetZoneImpl(name) {}
  void set_provider(std::unique_ptr<RouteProvider> provider) { provider_ = std::move(provider); }

 protected:
  void get_local_route(const simgrid::kernel::routing::NetPoint* src, const simgrid::kernel::routing::NetPoint* dst,
                       simgrid::kernel::routing::Route* route, double* latency) override;

 private:
  std::unique_ptr<RouteProvider> provider_;
  std::vector<simgrid::s4u::Link*> scratch_;  // reused between calls (SimGrid's kernel is single-threaded)
};

}  // namespace trainsim
