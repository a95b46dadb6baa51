// The list of topologies. A new topology is one file defining its factory and one line in each
// list below. (Self-registering static objects would be dropped by the linker: sim/ is a
// static library and nothing else references such a file.)
#include "sim/platform/topology_registry.hpp"

#include "sim/core/error.hpp"

namespace trainsim {

TopologyInfo nvswitch_topology();
TopologyInfo full_mesh_topology();
TopologyInfo fat_tree_topology();
TopologyInfo rail_optimized_topology();
TopologyInfo clos_topology();

const std::vector<TopologyInfo>& topologies() {
  static const std::vector<TopologyInfo> all = {
      nvswitch_topology(),
      full_mesh_topology(),
      fat_tree_topology(),
      rail_optimized_topology(),
      clos_topology(),
  };
  return all;
}

const TopologyInfo& find_topology(Topology kind) {
  for (const TopologyInfo& t : topologies())
    if (t.kind == kind) return t;
  throw UserError("no platform builder for topology #" + std::to_string(static_cast<int>(kind)));
}

std::vector<TopologyDescription> list_topologies() {
  std::vector<TopologyDescription> out;
  for (const TopologyInfo& t : topologies()) out.push_back(TopologyDescription{t.name, t.description});
  return out;
}

}  // namespace trainsim
