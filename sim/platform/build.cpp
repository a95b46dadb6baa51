#include "sim/platform/build.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <stdexcept>

#include "sim/platform/computed_zone.hpp"
#include "sim/platform/platform_router.hpp"
#include "sim/platform/tier_layout.hpp"
#include "sim/platform/topology_registry.hpp"

namespace trainsim {
namespace {

// Bandwidth of a device's transfer to itself (a local copy), bytes/s: its HBM bandwidth, or a
// bandwidth no fabric reaches when the accelerator does not say.
constexpr double kUnknownLoopbackBandwidth = 1e15;

void check_fresh_engine() {
  if (!simgrid::s4u::Engine::is_initialized())
    throw std::logic_error("build_platform: create the simgrid::s4u::Engine first");
  if (simgrid::s4u::Engine::get_instance()->get_netzone_root() != nullptr)
    throw std::logic_error("build_platform: the engine already has a platform (call it once per engine)");
}

std::vector<std::unique_ptr<TierFabric>> build_fabrics(const PlatformSpec& spec, int devices,
                                                       const std::vector<int>& sizes, LinkCatalog& catalog) {
  std::vector<std::unique_ptr<TierFabric>> fabrics;
  for (size_t t = 0; t < spec.tiers.size(); ++t) {
    TierContext ctx;
    ctx.spec = &spec;
    ctx.tier_index = static_cast<int>(t);
    ctx.devices = devices;
    ctx.domain_size = sizes[t];
    ctx.inner_size = t == 0 ? 1 : sizes[t - 1];
    ctx.catalog = &catalog;
    fabrics.push_back(find_topology(spec.tiers[t].topology).build(ctx));
  }
  return fabrics;
}

// Switch endpoints for tiers whose switch reduces (in_network_reduction and a switch to hold it).
// Returns each one's endpoint, in creation order, for the router.
std::vector<std::pair<simgrid::s4u::Host*, Endpoint>> add_switch_hosts(
    const PlatformSpec& spec, const std::vector<std::unique_ptr<TierFabric>>& fabrics, simgrid::s4u::NetZone* zone,
    LinkCatalog& catalog, BuiltPlatform& built) {
  std::vector<std::pair<simgrid::s4u::Host*, Endpoint>> endpoints;
  const int devices = static_cast<int>(built.hosts.size());
  built.switch_hosts.resize(spec.tiers.size());
  for (size_t t = 0; t < spec.tiers.size(); ++t) {
    const TierSpec& tier = spec.tiers[t];
    if (!tier.in_network_reduction || !fabrics[t]->has_switch()) continue;
    const int size = built.domain_sizes[t];
    for (int d = 0; d * size < devices; ++d) {
      // Fat pipe (not shared): only adds latency; its bandwidth never limits (>= the first hop's).
      // One per domain, as each domain has its own switch: a single core for all domains would tie
      // every in-network reduction of the cluster into one max-min system, re-solved at each flow.
      simgrid::s4u::Link* core = catalog.fatpipe(tier.name + "_switch" + std::to_string(d) + "_core",
                                                 tier.bandwidth * tier.devices_per_nic * tier.planes, tier.latency / 2,
                                                 static_cast<int>(t), "switch");
      simgrid::s4u::Host* host = zone->create_host(spec.tiers[t].name + "_switch" + std::to_string(d), kHostSpeed);
      built.switch_hosts[t].push_back(host);
      endpoints.emplace_back(host, Endpoint{d * size, static_cast<int>(t), core});
    }
  }
  return endpoints;
}

}  // namespace

bool private_pair_links(const TierSpec& tier) { return tier.topology == Topology::kFullMesh; }

simgrid::s4u::Host* BuiltPlatform::switch_host(int tier, int rank) const {
  if (tier < 0 || static_cast<size_t>(tier) >= switch_hosts.size()) return nullptr;
  const std::vector<simgrid::s4u::Host*>& hosts_of_tier = switch_hosts[static_cast<size_t>(tier)];
  if (hosts_of_tier.empty()) return nullptr;
  return hosts_of_tier[static_cast<size_t>(rank / domain_sizes[static_cast<size_t>(tier)])];
}

namespace {

// The wiring uses the bandwidth transfers really achieve: each tier's nominal figures times its
// `efficiency` (one place, so every topology sees the same effective fabric).
PlatformSpec effective_bandwidths(const PlatformSpec& nominal) {
  PlatformSpec spec = nominal;
  for (TierSpec& tier : spec.tiers) {
    tier.bandwidth *= tier.efficiency;
    tier.link_bandwidth *= tier.efficiency;
  }
  return spec;
}

}  // namespace

BuiltPlatform build_platform(const PlatformSpec& nominal, int devices, std::vector<int> link_owner) {
  const PlatformSpec spec = effective_bandwidths(nominal);
  BuiltPlatform built;
  built.domain_sizes = tier_domain_sizes(spec, devices);  // validates before touching SimGrid
  built.node_size = built.domain_sizes.front();
  for (const TierSpec& tier : spec.tiers) built.tier_names.push_back(tier.name);
  check_fresh_engine();

  auto* zone_impl = new ComputedZone(spec.name.empty() ? "platform" : spec.name);  // owned by the engine
  simgrid::s4u::NetZone* zone = zone_impl->get_iface();
  built.hosts.reserve(static_cast<size_t>(devices));
  // Two speeds per device: pstate 0 computes at kHostSpeed, pstate 1 (taken by the replay while
  // the device's bytes move) at kHostSpeed / (1 + comm_interference).
  const std::vector<double> speeds = {kHostSpeed, kHostSpeed / (1.0 + spec.accelerator.comm_interference)};
  for (int r = 0; r < devices; ++r) built.hosts.push_back(zone->create_host("dev" + std::to_string(r), speeds));

  LinkCatalog catalog(zone, &built.links);
  std::vector<std::unique_ptr<TierFabric>> fabrics = build_fabrics(spec, devices, built.domain_sizes, catalog);
  const double memory_bandwidth = spec.accelerator.memory_bandwidth;
  simgrid::s4u::Link* loopback = catalog.fatpipe(
      "loopback", memory_bandwidth > 0 ? memory_bandwidth : kUnknownLoopbackBandwidth, 0.0, -1, "loopback");

  const auto switches = add_switch_hosts(spec, fabrics, zone, catalog, built);

  auto router = std::make_unique<PlatformRouter>(built.domain_sizes, std::move(fabrics), loopback, std::move(link_owner));
  for (int r = 0; r < devices; ++r)
    router->add_endpoint(built.hosts[static_cast<size_t>(r)]->get_netpoint()->id(), Endpoint{r, -1, nullptr});
  for (const auto& [host, endpoint] : switches) router->add_endpoint(host->get_netpoint()->id(), endpoint);
  zone_impl->set_provider(std::move(router));
  zone->seal();
  return built;
}

}  // namespace trainsim
