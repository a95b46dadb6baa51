#include "sim/platform/platform_router.hpp"

#include <stdexcept>
#include <string>

#include "sim/platform/tier_layout.hpp"

namespace trainsim {

void PlatformRouter::add_endpoint(unsigned long netpoint_id, Endpoint endpoint) {
  if (endpoints_.size() <= netpoint_id) endpoints_.resize(netpoint_id + 1);
  endpoints_[netpoint_id] = endpoint;
}

const Endpoint& PlatformRouter::endpoint(unsigned long netpoint_id) const {
  if (netpoint_id >= endpoints_.size() || endpoints_[netpoint_id].rank < 0)
    throw std::logic_error("platform route: unknown endpoint #" + std::to_string(netpoint_id));
  return endpoints_[netpoint_id];
}

void PlatformRouter::route(unsigned long src, unsigned long dst, std::vector<simgrid::s4u::Link*>& links) const {
  const Endpoint& a = endpoint(src);
  const Endpoint& b = endpoint(dst);
  if (a.switch_tier < 0 && b.switch_tier < 0) {
    if (a.rank == b.rank) {
      links.push_back(loopback_);
      return;
    }
    const TierFabric& fabric = *fabrics_[static_cast<size_t>(tier_between_sizes(sizes_, a.rank, b.rank))];
    if (fabric.private_pairs())
      fabric.append_route(a.rank, b.rank, links);
    else
      fabric.append_route(owner(a.rank), owner(b.rank), links);
    return;
  }
  // Device <-> switch of its own domain (in-network reduction).
  const Endpoint& device = a.switch_tier < 0 ? a : b;
  const Endpoint& sw = a.switch_tier < 0 ? b : a;
  const size_t tier = static_cast<size_t>(sw.switch_tier);
  if (device.switch_tier >= 0 || device.rank / sizes_[tier] != sw.rank / sizes_[tier])
    throw std::logic_error("platform route: a switch endpoint only talks to devices of its own domain (rank " +
                           std::to_string(device.rank) + ", tier " + std::to_string(tier) + ")");
  const bool to_switch = &device == &a;
  if (!to_switch) links.push_back(sw.switch_core);
  fabrics_[tier]->append_switch_route(device.rank, to_switch, links);
  if (to_switch) links.push_back(sw.switch_core);
}

}  // namespace trainsim
