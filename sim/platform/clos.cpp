// clos: a unified-bus style two-level non-blocking Clos (Huawei CloudMatrix384: 384 Ascend 910C
// NPUs, each one hop through UB switches from any other). A non-blocking Clos delivers full
// port bandwidth between any pair, so it is modelled like nvswitch with a larger domain: one
// port of `bandwidth` per device per direction, latency split over the two ports. The two
// switch levels are not represented (no contention inside the Clos).
#include "sim/platform/crossbar_fabric.hpp"
#include "sim/platform/topology_registry.hpp"

namespace trainsim {

TopologyInfo clos_topology() {
  return TopologyInfo{
      Topology::kClos, "clos",
      "non-blocking Clos (unified bus, CloudMatrix384-like): each device one port of `bandwidth` per "
      "direction; modelled as a crossbar, internal switch levels never limit",
      [](const TierContext& ctx) -> std::unique_ptr<TierFabric> { return std::make_unique<CrossbarFabric>(ctx); }};
}

}  // namespace trainsim
