// Topologies by name: each is one file defining a factory, listed once in
// topology_registry.cpp. Internal to sim/platform (the CLI uses list_topologies()).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/platform/fabric.hpp"

namespace trainsim {

struct TopologyInfo {
  Topology kind = Topology::kNvswitch;
  std::string name;         // the YAML value of `topology`
  std::string description;  // one line for `trainsim list topologies`
  std::function<std::unique_ptr<TierFabric>(const TierContext&)> build;
};

[[nodiscard]] const std::vector<TopologyInfo>& topologies();
[[nodiscard]] const TopologyInfo& find_topology(Topology kind);  // throws UserError if none

}  // namespace trainsim
