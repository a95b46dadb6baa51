// rail_optimized: the NVIDIA DGX SuperPOD layout (switched_tree.hpp). NIC k of every node
// ("rail" k) goes to rail-k leaf switches: a leaf serves one rail of leaf_down consecutive
// nodes (a scalable unit). Same-rail traffic inside a unit stays on its leaf; cross-rail
// traffic goes through the spine (NCCL's PXN, which first hops over NVLink to the peer rail,
// is not modelled). Above the leaves, leaves are ordered rail-major, so pods of radix/2
// leaves hold one rail of many units. Uplinks, oversubscription and planes as in fat_tree.
//
// Example: 2 nodes x 2 devices, radix 4 (2 NIC ports per leaf at any o):
/*
                   [ spine ]
                  /         \
          leaf0_up           leaf1_up
     [rail-0 leaf0]          [rail-1 leaf1]
       /       \               /       \
     nic0     nic2           nic1     nic3        (nic r = device r)
    node0     node1          node0    node1
*/
#include "sim/platform/switched_tree.hpp"
#include "sim/platform/topology_registry.hpp"

namespace trainsim {

TopologyInfo rail_optimized_topology() {
  return TopologyInfo{
      Topology::kRailOptimized, "rail_optimized",
      "rail-optimized fat tree (SuperPOD): NIC k of every node on rail-k leaves, cross-rail traffic via the "
      "spine; leaf uplinks sized by `oversubscription`",
      [](const TierContext& ctx) -> std::unique_ptr<TierFabric> {
        return std::make_unique<SwitchedTreeFabric>(ctx, [](const TreeGeometry& g, int node, int rail) {
          const int units = (g.nodes + g.leaf_down - 1) / g.leaf_down;  // leaves per rail
          const int leaf = rail * units + node / g.leaf_down;
          return leaf * g.leaf_down + node % g.leaf_down;
        });
      }};
}

}  // namespace trainsim
