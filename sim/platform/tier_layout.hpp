// How the tiers of a platform nest, as plain numbers (no SimGrid): domains of a tier are
// blocks of consecutive ranks (rank = node-major), each tier's domain a whole number of the
// tier-below's domains. Internal to sim/platform.
#pragma once
#include <string>
#include <vector>

#include "sim/config/platform_spec.hpp"

namespace trainsim {

// Devices per domain of each tier, innermost first, with domain_size 0 ("all") resolved and
// sizes larger than `devices` clamped to it (the last domain of a tier may then be partial).
// Validates the tier list and the common tier fields; throws ConfigError/UserError.
[[nodiscard]] std::vector<int> tier_domain_sizes(const PlatformSpec& spec, int devices);

// Innermost tier whose domain holds both ranks, from sizes returned above.
[[nodiscard]] int tier_between_sizes(const std::vector<int>& sizes, int rank_a, int rank_b);

// "tiers.<index>.<key>" for error messages.
[[nodiscard]] std::string tier_key(int tier_index, const std::string& key);

}  // namespace trainsim
