#include "sim/platform/fabric.hpp"

#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "sim/core/error.hpp"
#include "sim/platform/tier_layout.hpp"

namespace trainsim {

DuplexLink LinkCatalog::duplex(const std::string& name, double bandwidth, double latency, int tier,
                               const char* role) {
  simgrid::s4u::SplitDuplexLink* link = zone_->create_split_duplex_link(name, bandwidth);
  link->set_latency(latency);
  DuplexLink both{link->get_link_up(), link->get_link_down()};
  listing_->push_back(PlatformLink{both.up, tier, role});
  listing_->push_back(PlatformLink{both.down, tier, role});
  return both;
}

simgrid::s4u::Link* LinkCatalog::fatpipe(const std::string& name, double bandwidth, double latency, int tier,
                                         const char* role) {
  simgrid::s4u::Link* link = zone_->create_link(name, bandwidth);
  link->set_latency(latency);
  link->set_sharing_policy(simgrid::s4u::Link::SharingPolicy::FATPIPE);
  listing_->push_back(PlatformLink{link, tier, role});
  return link;
}

int TierContext::devices_in_domain(int d) const {
  const int first = d * domain_size;
  return std::min(domain_size, devices - first);
}

std::string TierContext::link_name(const std::string& suffix) const { return tier().name + "_" + suffix; }

void require_positive(const TierContext& ctx, const std::string& key, double value, const std::string& valid) {
  if (!(value > 0))
    throw ConfigError(ctx.spec->source_file, 0, tier_key(ctx.tier_index, key),
                      "must be positive on tier '" + ctx.tier().name + "'", std::to_string(value), valid);
}

}  // namespace trainsim
