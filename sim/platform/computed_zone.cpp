#include "sim/platform/computed_zone.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/s4u/Link.hpp>
#include <stdexcept>

namespace trainsim {

void ComputedZone::get_local_route(const simgrid::kernel::routing::NetPoint* src,
                                   const simgrid::kernel::routing::NetPoint* dst,
                                   simgrid::kernel::routing::Route* route, double* latency) {
  if (!provider_) throw std::logic_error("ComputedZone '" + get_name() + "' has no route provider");
  scratch_.clear();
  provider_->route(src->id(), dst->id(), scratch_);
  for (simgrid::s4u::Link* link : scratch_) {
    route->link_list_.push_back(link->get_impl());
    if (latency != nullptr) *latency += link->get_latency();
  }
}

}  // namespace trainsim
