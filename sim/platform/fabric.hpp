// The wiring of one tier inside the platform's netzone: the links it creates and the route a
// transfer takes across it. One implementation per topology family (crossbar, full mesh,
// switched tree). Internal to sim/platform.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/config/platform_spec.hpp"
#include "sim/platform/build.hpp"

namespace simgrid::s4u {
class NetZone;
}  // namespace simgrid::s4u

namespace trainsim {

// The two directions of a split-duplex link: `up` carries traffic leaving the device (or
// going up the tree), `down` traffic arriving.
struct DuplexLink {
  simgrid::s4u::Link* up = nullptr;
  simgrid::s4u::Link* down = nullptr;
};

// Creates links in the zone and lists each direction in BuiltPlatform::links.
class LinkCatalog {
 public:
  LinkCatalog(simgrid::s4u::NetZone* zone, std::vector<PlatformLink>* listing) : zone_(zone), listing_(listing) {}
  // Split-duplex link of `bandwidth` bytes/s per direction and `latency` seconds per direction.
  DuplexLink duplex(const std::string& name, double bandwidth, double latency, int tier, const char* role);
  // A link that is not shared between flows (each flow gets the full bandwidth).
  simgrid::s4u::Link* fatpipe(const std::string& name, double bandwidth, double latency, int tier, const char* role);

 private:
  simgrid::s4u::NetZone* zone_;
  std::vector<PlatformLink>* listing_;
};

// What a topology builder gets to know about its tier.
struct TierContext {
  const PlatformSpec* spec = nullptr;
  int tier_index = 0;
  int devices = 0;      // devices in the whole platform
  int domain_size = 0;  // devices per domain of this tier (the last domain may be partial)
  int inner_size = 1;   // devices per domain of the tier below (1 for tier 0)
  LinkCatalog* catalog = nullptr;

  [[nodiscard]] const TierSpec& tier() const { return spec->tiers[static_cast<size_t>(tier_index)]; }
  [[nodiscard]] int domain_count() const { return (devices + domain_size - 1) / domain_size; }
  // Devices in domain d (domain_size except maybe for the last one).
  [[nodiscard]] int devices_in_domain(int d) const;
  // Link name "<tier name>_<suffix>".
  [[nodiscard]] std::string link_name(const std::string& suffix) const;
};

class TierFabric {
 public:
  virtual ~TierFabric() = default;
  // Appends, in order, the links a transfer from device a to device b crosses on this tier
  // (both in the same domain of this tier). a == b (a folded replay's mirrored transfer, see
  // build_platform's link_owner) crosses a's own up- and down-link, unless private_pairs().
  virtual void append_route(int a, int b, std::vector<simgrid::s4u::Link*>& links) const = 0;
  // Whether every pair of devices has links of its own (no link shared with other pairs).
  [[nodiscard]] virtual bool private_pairs() const { return false; }
  // Whether the tier has a switch a member can send to (for in-network reduction).
  [[nodiscard]] virtual bool has_switch() const = 0;
  // Appends the links between `device` and its domain's switch: towards it if `to_switch`.
  virtual void append_switch_route(int device, bool to_switch, std::vector<simgrid::s4u::Link*>& links) const = 0;
};

// Throws ConfigError "<tiers.i.key>: must be positive" unless value > 0.
void require_positive(const TierContext& ctx, const std::string& key, double value, const std::string& valid);

}  // namespace trainsim
