// Names of the tier topologies as they appear in platform YAML (`topology: fat_tree`).
#include "sim/config/platform_spec.hpp"

namespace trainsim {

const char* to_string(Topology t) {
  switch (t) {
    case Topology::kNvswitch: return "nvswitch";
    case Topology::kFullMesh: return "full_mesh";
    case Topology::kFatTree: return "fat_tree";
    case Topology::kRailOptimized: return "rail_optimized";
    case Topology::kClos: return "clos";
  }
  return "?";
}

bool parse_topology(const std::string& text, Topology* out) {
  for (Topology t : {Topology::kNvswitch, Topology::kFullMesh, Topology::kFatTree,
                     Topology::kRailOptimized, Topology::kClos}) {
    if (text == to_string(t)) {
      *out = t;
      return true;
    }
  }
  return false;
}

}  // namespace trainsim
