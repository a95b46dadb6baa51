#include "sim/platform/crossbar_fabric.hpp"

namespace trainsim {

CrossbarFabric::CrossbarFabric(const TierContext& ctx) {
  const TierSpec& tier = ctx.tier();
  require_positive(ctx, "bandwidth", tier.bandwidth, "the per-device port bandwidth, e.g. 450GBps");
  const double bandwidth = tier.bandwidth * tier.planes;
  const double half_latency = tier.latency / 2;
  ports_.reserve(static_cast<size_t>(ctx.devices));
  for (int r = 0; r < ctx.devices; ++r)
    ports_.push_back(ctx.catalog->duplex(ctx.link_name("port" + std::to_string(r)), bandwidth, half_latency,
                                         ctx.tier_index, "port"));
}

void CrossbarFabric::append_route(int a, int b, std::vector<simgrid::s4u::Link*>& links) const {
  links.push_back(ports_[static_cast<size_t>(a)].up);
  links.push_back(ports_[static_cast<size_t>(b)].down);
}

void CrossbarFabric::append_switch_route(int device, bool to_switch, std::vector<simgrid::s4u::Link*>& links) const {
  const DuplexLink& port = ports_[static_cast<size_t>(device)];
  links.push_back(to_switch ? port.up : port.down);
}

}  // namespace trainsim
