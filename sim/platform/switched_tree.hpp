// A scale-out network of NICs and switches (fat tree, rail-optimized), modelled at flow level:
//
/*
                    [ top switch layer: non-blocking, no link ]
                   /                                           \
       agg uplink (pod -> top)                        (only when the leaves do not fit
          |                                            under one layer of `switch_radix` ports)
       leaf uplink (leaf -> spine), capacity = sum of its NICs' bandwidth / oversubscription
          |
       [leaf switch]  leaf_down = radix / 2 NIC ports, whatever the oversubscription
        |   |   |
       NIC NIC NIC    one per `devices_per_nic` devices of a node, bandwidth * devices_per_nic * planes
*/
//
// Each switch level's uplinks are aggregated into one split-duplex link per switch (perfect
// ECMP / adaptive routing: no hash collisions). Oversubscription o changes only the capacity of
// the leaf uplinks, never how many NICs share a leaf (radix / 2, the non-blocking split): were the
// leaf population to follow o as well (radix * o / (1 + o) ports), a 4:1 tree would put more
// neighbours on one leaf than a 2:1 tree and could come out faster for the same traffic. A leaf
// with more device ports is a larger `switch_radix`. Oversubscription applies at the leaf; above it
// the tree is non-blocking (an aggregation switch's uplink equals the sum of its leaves').
// At oversubscription <= 1 no uplink is created: an uplink then carries at least the sum of the
// NIC bandwidths below it, and the flows crossing it all leave (or enter) those NICs, so it can
// never bind; the max-min allocation is the same without it (the feasible rates are the same),
// and leaving it out keeps the flows of different NICs in separate solver systems instead of
// one system that SimGrid re-solves at every flow change (the unfolded replay's cost at scale). A
// level is added (pods of radix/2 leaves, then pods of pods) while more than `switch_radix`
// groups would meet at the top. A transfer crosses: src NIC up, the uplinks up to the lowest
// switch level the two NICs share, the matching uplinks down, dst NIC down. The tier latency
// is charged at the NICs (half each way); switch hops add none, so every route has the same
// latency and flows of one tier share links fairly (CM02 weighs flows by route latency).
// `planes` multiplies the NIC bandwidth, and with it every uplink (parallel identical planes
// joined into one). Internal to sim/platform.
#pragma once
#include <functional>

#include "sim/platform/fabric.hpp"

namespace trainsim {

struct TreeGeometry {
  int nodes = 0;          // nodes in the domain (groups of tier-below-domain devices)
  int nics_per_node = 1;  // NICs per node (rails)
  int leaf_down = 1;      // NIC ports per leaf switch
};

// Position of a node's rail-th NIC among the leaf ports (leaf = position / leaf_down).
using NicPlacement = std::function<int(const TreeGeometry& geometry, int node, int rail)>;

class SwitchedTreeFabric : public TierFabric {
 public:
  SwitchedTreeFabric(const TierContext& ctx, NicPlacement placement);
  void append_route(int a, int b, std::vector<simgrid::s4u::Link*>& links) const override;
  [[nodiscard]] bool has_switch() const override { return true; }
  void append_switch_route(int device, bool to_switch, std::vector<simgrid::s4u::Link*>& links) const override;

  // NIC ports per leaf: radix / 2, whatever the oversubscription (header).
  [[nodiscard]] static int leaf_down_ports(int radix);

 private:
  struct Tree {
    std::vector<int> group_size;                  // positions per switch at level l (0 = leaf)
    std::vector<std::vector<DuplexLink>> uplinks;  // [level][switch]; empty level = no uplinks
  };
  void build_domain(const TierContext& ctx, int domain, const NicPlacement& placement);
  void build_uplinks(const TierContext& ctx, int domain, Tree& tree, const std::vector<int>& nics);

  std::vector<int> nic_of_device_;  // by rank
  std::vector<DuplexLink> nics_;    // by NIC index
  std::vector<int> nic_position_;   // by NIC index: position in its domain's tree
  std::vector<int> nic_domain_;     // by NIC index
  std::vector<Tree> trees_;         // by domain
};

}  // namespace trainsim
