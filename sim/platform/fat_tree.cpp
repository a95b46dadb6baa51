// fat_tree: a leaf/spine(/core) tree of `switch_radix`-port switches for the scale-out network
// (switched_tree.hpp). NICs fill the leaves in rank order: the NICs of consecutive nodes share a
// leaf, so neighbouring nodes talk through one leaf and the rest through the spine.
// Each leaf has radix / 2 NIC ports; oversubscription o sizes only its uplink: (sum of its NIC
// bandwidth) / o.
//
// Example: 4 nodes x 1 device, radix 4 -> 2 NIC ports per leaf (at any o):
/*
                [ spine ]
               /         \
       leaf0_up           leaf1_up
         [leaf0]            [leaf1]
         /     \            /     \
      nic0     nic1      nic2     nic3
*/
#include "sim/platform/switched_tree.hpp"
#include "sim/platform/topology_registry.hpp"

namespace trainsim {

TopologyInfo fat_tree_topology() {
  return TopologyInfo{
      Topology::kFatTree, "fat_tree",
      "leaf/spine fat tree of `switch_radix`-port switches, NICs of consecutive nodes on one leaf; leaf "
      "uplinks sized by `oversubscription`; NIC = bandwidth * devices_per_nic * planes",
      [](const TierContext& ctx) -> std::unique_ptr<TierFabric> {
        return std::make_unique<SwitchedTreeFabric>(
            ctx, [](const TreeGeometry& g, int node, int rail) { return node * g.nics_per_node + rail; });
      }};
}

}  // namespace trainsim
