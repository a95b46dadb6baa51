// PlatformSpec → SimGrid netzones with one host per device (rank r is hosts[r]).
// Call configure_network(engine) right after creating the simgrid::s4u::Engine, then
// build_platform once, before actors start.
//
// How it is modelled (details in each topology file, listed by list_topologies()):
// all devices sit in one netzone whose routes are computed on demand from the tiers
// (sim/platform/computed_zone.hpp): a transfer between two ranks uses the innermost tier whose
// domain holds both (tier_between), and crosses only that tier's links. Nothing is stored per
// pair, so 16,384 devices build in a fraction of a second. Every route's latency is exactly
// its tier's `latency` (split over the links that carry it), so α + S/β holds per transfer.
#pragma once
#include <string>
#include <vector>

#include "sim/config/platform_spec.hpp"

namespace simgrid::s4u {
class Engine;
class Host;
class Link;
}  // namespace simgrid::s4u

namespace trainsim {

// Speed of every device host, FLOP/s. trainsim computes kernel durations itself; the replay
// runs a kernel of d seconds as an Exec of d * kHostSpeed FLOP on the device's host. Each device
// host has two pstates: kDeviceIdleLinks (kHostSpeed) and kDeviceBusyLinks
// (kHostSpeed / (1 + accelerator.comm_interference)), the speed while its bytes move.
inline constexpr double kHostSpeed = 1e9;
inline constexpr unsigned long kDeviceIdleLinks = 0;
inline constexpr unsigned long kDeviceBusyLinks = 1;

// One link of the built platform, for per-link utilisation reports.
struct PlatformLink {
  simgrid::s4u::Link* link = nullptr;  // one direction of a port/NIC/uplink (SimGrid name ends _UP/_DOWN)
  int tier = -1;                       // index into PlatformSpec::tiers; -1 for the loopback
  const char* role = "";               // "port", "mesh", "nic", "leaf_uplink", "agg_uplink", "uplink", "switch", "loopback"
};

struct BuiltPlatform {
  std::vector<simgrid::s4u::Host*> hosts;  // hosts[rank]
  int node_size = 1;                       // devices per innermost domain (tier 0 domain_size)
  std::vector<int> domain_sizes;           // devices per domain of each tier (0 resolved to all)
  std::vector<std::string> tier_names;     // PlatformSpec::tiers[t].name
  std::vector<PlatformLink> links;         // every link, each direction separately
  // switch_hosts[t][d]: endpoint standing for the switch of domain d of tier t, present when
  // the tier has in_network_reduction (else empty). A transfer rank -> switch crosses the
  // rank's up-link on that tier (port or NIC) and a non-shared "<tier>_switch" link; switch ->
  // rank the same link and the rank's down-link; each way takes the full tier latency.
  std::vector<std::vector<simgrid::s4u::Host*>> switch_hosts;

  // The switch endpoint of tier `tier` for `rank`'s domain (the target of collective member
  // kSwitchMember), or nullptr when that tier cannot reduce in the network.
  [[nodiscard]] simgrid::s4u::Host* switch_host(int tier, int rank) const;
};

// Network model settings for GPU fabrics: CM02 without cross-traffic and without the TCP
// window bound, so one transfer of S bytes on a route of latency α and bottleneck bandwidth β
// takes exactly α + S/β. Must run before build_platform (SimGrid reads the model at the first
// netzone's creation).
void configure_network(simgrid::s4u::Engine& engine);

// Throws UserError/ConfigError for a platform that cannot be built for `devices` devices.
// `link_owner` (empty: identity) serves folded replays: a transfer to or from rank r crosses
// the endpoint links (port, NIC) of rank link_owner[r] on the tier joining the pair, so a folded
// device's transfers load the links of the replayed device it mirrors. Tiers whose pair links
// are private to the pair (full mesh) keep the real endpoints.
[[nodiscard]] BuiltPlatform build_platform(const PlatformSpec& spec, int devices, std::vector<int> link_owner = {});

// Whether every pair of the tier's devices has links of its own, shared with no other pair
// (full mesh): then a tier's collectives run best as direct algorithms, and a folded replay's
// transfers to a folded device keep the real pair links.
[[nodiscard]] bool private_pair_links(const TierSpec& tier);

// Index of the innermost tier whose domain contains both ranks (the tier a transfer uses).
[[nodiscard]] int tier_between(const PlatformSpec& spec, int devices, int rank_a, int rank_b);

// Topologies build_platform knows, for `trainsim list topologies`.
struct TopologyDescription {
  std::string name;         // the YAML value of `topology`
  std::string description;  // one line
};
[[nodiscard]] std::vector<TopologyDescription> list_topologies();

}  // namespace trainsim
