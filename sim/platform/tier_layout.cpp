#include "sim/platform/tier_layout.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/platform/build.hpp"

namespace trainsim {
namespace {

void check_common_fields(const PlatformSpec& spec, int t) {
  const TierSpec& tier = spec.tiers[static_cast<size_t>(t)];
  const std::string& file = spec.source_file;
  if (tier.domain_size < 0)
    throw ConfigError(file, 0, tier_key(t, "domain_size"), "must not be negative", std::to_string(tier.domain_size),
                      "a device count, or 0 for all devices");
  if (tier.latency < 0)
    throw ConfigError(file, 0, tier_key(t, "latency"), "must not be negative", std::to_string(tier.latency),
                      "a time such as 1us");
  if (tier.planes < 1)
    throw ConfigError(file, 0, tier_key(t, "planes"), "must be at least 1", std::to_string(tier.planes),
                      "1, 2, ...");
  if (tier.devices_per_nic < 1)
    throw ConfigError(file, 0, tier_key(t, "devices_per_nic"), "must be at least 1",
                      std::to_string(tier.devices_per_nic), "1, 2, ...");
}

void check_counts(const PlatformSpec& spec, int devices) {
  if (spec.tiers.empty())
    throw ConfigError(spec.source_file, 0, "tiers", "a platform needs at least one tier", "",
                      "a list of tiers, innermost first");
  if (devices < 1)
    throw UserError("platform '" + spec.name + "': the device count must be at least 1 (got " +
                    std::to_string(devices) + ")");
  if (spec.max_devices > 0 && devices > spec.max_devices)
    throw UserError("platform '" + spec.name + "' models at most " + std::to_string(spec.max_devices) +
                    " devices (max_devices), but " + std::to_string(devices) + " were asked for");
  std::set<std::string> names;
  for (size_t t = 0; t < spec.tiers.size(); ++t)
    if (spec.tiers[t].name.empty() || !names.insert(spec.tiers[t].name).second)
      throw ConfigError(spec.source_file, 0, tier_key(static_cast<int>(t), "name"),
                        "every tier needs its own non-empty name", spec.tiers[t].name, "a name no other tier uses");
}

}  // namespace

std::string tier_key(int tier_index, const std::string& key) {
  return "tiers." + std::to_string(tier_index) + "." + key;
}

std::vector<int> tier_domain_sizes(const PlatformSpec& spec, int devices) {
  check_counts(spec, devices);
  std::vector<int> sizes;
  int below = 1;
  for (size_t i = 0; i < spec.tiers.size(); ++i) {
    const int t = static_cast<int>(i);
    check_common_fields(spec, t);
    const int raw = spec.tiers[i].domain_size;
    const int size = raw == 0 ? devices : std::min(raw, devices);
    if (size != devices && size % below != 0)
      throw ConfigError(spec.source_file, 0, tier_key(t, "domain_size"),
                        "must be a whole number of the tier below's domains (" + std::to_string(below) + " devices)",
                        std::to_string(raw), "a multiple of " + std::to_string(below) + ", or 0 for all devices");
    sizes.push_back(size);
    below = size;
  }
  if (sizes.back() != devices) {
    const int last = static_cast<int>(sizes.size()) - 1;
    throw ConfigError(spec.source_file, 0, tier_key(last, "domain_size"),
                      "the outermost tier must join all " + std::to_string(devices) + " devices",
                      std::to_string(spec.tiers.back().domain_size), "0 (all devices)");
  }
  return sizes;
}

int tier_between_sizes(const std::vector<int>& sizes, int rank_a, int rank_b) {
  for (size_t t = 0; t < sizes.size(); ++t)
    if (rank_a / sizes[t] == rank_b / sizes[t]) return static_cast<int>(t);
  throw std::out_of_range("tier_between: ranks " + std::to_string(rank_a) + " and " + std::to_string(rank_b) +
                          " share no domain");
}

int tier_between(const PlatformSpec& spec, int devices, int rank_a, int rank_b) {
  if (rank_a < 0 || rank_b < 0 || rank_a >= devices || rank_b >= devices)
    throw std::out_of_range("tier_between: rank out of range 0.." + std::to_string(devices - 1));
  return tier_between_sizes(tier_domain_sizes(spec, devices), rank_a, rank_b);
}

}  // namespace trainsim
