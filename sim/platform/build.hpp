// PlatformSpec → SimGrid netzones with one host per device (rank r is hosts[r]).
// Must be called once, after simgrid::s4u::Engine is created and before actors start.
#pragma once
#include <string>
#include <vector>

#include "sim/config/platform_spec.hpp"

namespace simgrid::s4u {
class Host;
class Link;
}  // namespace simgrid::s4u

namespace trainsim {

struct BuiltPlatform {
  std::vector<simgrid::s4u::Host*> hosts;  // hosts[rank]
  int node_size = 1;                       // devices per innermost domain (tier 0 domain_size)
};

[[nodiscard]] BuiltPlatform build_platform(const PlatformSpec& spec, int devices);

// Index of the innermost tier whose domain contains both ranks (the tier a transfer uses).
[[nodiscard]] int tier_between(const PlatformSpec& spec, int devices, int rank_a, int rank_b);

}  // namespace trainsim
