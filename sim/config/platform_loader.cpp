// platforms/*.yaml -> PlatformSpec.
#include "sim/config/divisors.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/platform_keys.hpp"
#include "sim/config/plausible_ranges.hpp"
#include "sim/config/preset_base.hpp"
#include "sim/config/spec_parsers.hpp"
#include "sim/config/uncalibrated.hpp"
#include "sim/config/yaml_reader.hpp"

namespace trainsim {
namespace {

AcceleratorSpec read_accelerator(MapReader& r, std::vector<DefaultedKey>* defaulted) {
  auto acc = r.map("accelerator", Need::kRequired, accelerator_keys().keys());
  AcceleratorSpec a;
  accelerator_keys().read(*acc, a, defaulted);
  return a;
}

TierSpec read_tier(YamlSource& source, const YAML::Node& node, const std::string& path,
                   std::vector<DefaultedKey>* defaulted) {
  MapReader r(source, node, path, tier_keys().keys());
  TierSpec t;
  tier_keys().read(r, t, defaulted);
  return t;
}

// Each tier joins whole domains of the tier inside it: an inner domain_size must divide the
// next one; 0 (all devices) is only meaningful on the outermost tier(s).
void check_tier_nesting(const YamlSource& source, const std::vector<TierSpec>& tiers) {
  for (size_t i = 1; i < tiers.size(); ++i) {
    const int inner = tiers[i - 1].domain_size;
    const int outer = tiers[i].domain_size;
    const std::string inner_key = "tiers." + std::to_string(i - 1) + ".domain_size";
    const std::string outer_key = "tiers." + std::to_string(i) + ".domain_size";
    const int per_nic = tiers[i].devices_per_nic;
    if (per_nic > 1 && inner > 0 && inner % per_nic != 0) {  // a NIC serves devices of one inner domain (node)
      source.fail_at("tiers." + std::to_string(i) + ".devices_per_nic",
                     "must divide " + inner_key + " (" + std::to_string(inner) + "): a NIC is shared by devices of one '" +
                         tiers[i - 1].name + "' domain",
                     std::to_string(per_nic), "a divisor of " + std::to_string(inner) + ": " + list_numbers(divisors(inner)));
    }
    if (outer == 0) continue;
    if (inner == 0) {
      source.fail_at(inner_key, "0 (all devices) is allowed only when every outer tier is 0 too", "0",
                     "a divisor of " + outer_key + " (" + std::to_string(outer) + "): " + list_numbers(divisors(outer)));
    }
    if (outer % inner != 0) {
      source.fail_at(outer_key, "must be a multiple of " + inner_key + " (" + std::to_string(inner) + ")",
                     std::to_string(outer), "a multiple of " + std::to_string(inner) + ", or 0 (all devices)");
    }
  }
}

}  // namespace

PlatformSpec parse_platform(YamlSource& source, const YAML::Node& root) {
  MapReader r(source, root, "", platform_keys().keys());
  PlatformSpec p;
  p.source_file = source.file();
  platform_keys().read(r, p, nullptr);  // name, description, max_devices (no optimistic default among them)
  p.accelerator = read_accelerator(r, &p.defaulted);
  const std::vector<YAML::Node> tiers = r.list("tiers", Need::kRequired);
  if (tiers.empty()) {
    r.fail("tiers", "needs at least one tier", "an empty list",
           "a list of tiers, innermost first, each with name, topology, bandwidth, latency");
  }
  for (size_t i = 0; i < tiers.size(); ++i) {
    p.tiers.push_back(read_tier(source, tiers[i], r.key_path("tiers." + std::to_string(i)), &p.defaulted));
  }
  check_tier_nesting(source, p.tiers);
  p.uncalibrated = read_uncalibrated(source, root);
  return p;
}

PlatformSpec load_platform_file(const std::filesystem::path& file, const std::vector<Override>& overrides) {
  YamlSource source(file.string());
  YAML::Node root = resolve_preset_base(source, load_yaml_file(file), PresetKind::kPlatform, file.parent_path());
  apply_overrides(root, overrides, source);
  return parse_platform(source, root);
}

PlatformSpec load_platform(const std::string& name_or_path) {
  const Location where{looks_like_path(name_or_path) ? name_or_path : preset_folder(PresetKind::kPlatform).string(),
                       0};
  return load_platform_file(resolve_reference(name_or_path, PresetKind::kPlatform, "", where, "platform"), {});
}

}  // namespace trainsim
