// platforms/*.yaml -> PlatformSpec.
#include "sim/config/divisors.hpp"
#include "sim/config/enum_names.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/plausible_ranges.hpp"
#include "sim/config/preset_base.hpp"
#include "sim/config/spec_parsers.hpp"
#include "sim/config/uncalibrated.hpp"
#include "sim/config/yaml_reader.hpp"

namespace trainsim {
namespace {

void read_peak_flops(MapReader& acc, AcceleratorSpec* a) {
  std::vector<std::string> names;
  for (const auto& p : precision_names()) names.emplace_back(p.first);
  auto peaks = acc.map("peak_flops", Need::kRequired, names);
  for (const auto& [name, precision] : precision_names()) {
    double rate = 0;
    if (peaks->read_quantity(name, &rate, Quantity::kFlopRate, Need::kOptional, peak_flop_rate_range())) {
      a->peak_flops[precision] = rate;
    }
  }
  if (a->peak_flops.empty()) {
    acc.fail("peak_flops", "needs the peak rate of at least one precision", "an empty map",
             "a map from precision (" + join_names(names) + ") to a FLOP rate, e.g. {bf16: 989TFLOPS}");
  }
}

AcceleratorSpec read_accelerator(MapReader& r) {
  auto acc = r.map("accelerator", Need::kRequired,
                   {"name", "peak_flops", "memory_capacity", "memory_bandwidth", "compute_units", "gemm_tile_m",
                    "gemm_tile_n", "gemm_wave_quantization", "gemm_efficiency", "fp8_gemm_efficiency", "gemm_k_overhead",
                    "attention_efficiency", "attention_k_overhead", "memory_efficiency", "kernel_overhead",
                    "dropout_rng_rate", "comm_interference"});
  AcceleratorSpec a;
  acc->read_string("name", &a.name, Need::kRequired);
  read_peak_flops(*acc, &a);
  acc->read_quantity("memory_capacity", &a.memory_capacity, Quantity::kBytes, Need::kRequired, device_memory_range());
  acc->read_quantity("memory_bandwidth", &a.memory_bandwidth, Quantity::kBandwidth, Need::kRequired,
                    memory_bandwidth_range());
  acc->read_int("compute_units", &a.compute_units, Need::kOptional, 1, kMaxComputeUnits);
  acc->read_int("gemm_tile_m", &a.gemm_tile_m, Need::kOptional, 1, kMaxGemmTile);
  acc->read_int("gemm_tile_n", &a.gemm_tile_n, Need::kOptional, 1, kMaxGemmTile);
  acc->read_bool("gemm_wave_quantization", &a.gemm_wave_quantization, Need::kOptional);
  acc->read_number("gemm_k_overhead", &a.gemm_k_overhead, Need::kOptional, k_overhead_range());
  acc->read_number("gemm_efficiency", &a.gemm_efficiency, Need::kOptional, efficiency_range());
  acc->read_number("fp8_gemm_efficiency", &a.fp8_gemm_efficiency, Need::kOptional, efficiency_range());
  acc->read_number("attention_efficiency", &a.attention_efficiency, Need::kOptional, efficiency_range());
  acc->read_number("attention_k_overhead", &a.attention_k_overhead, Need::kOptional, k_overhead_range());
  acc->read_number("memory_efficiency", &a.memory_efficiency, Need::kOptional, efficiency_range());
  acc->read_quantity("kernel_overhead", &a.kernel_overhead, Quantity::kTime, Need::kOptional, kernel_overhead_range());
  acc->read_number("dropout_rng_rate", &a.dropout_rng_rate, Need::kOptional, rng_rate_range());
  acc->read_number("comm_interference", &a.comm_interference, Need::kOptional, fraction_below_one());
  return a;
}

TierSpec read_tier(YamlSource& source, const YAML::Node& node, const std::string& path) {
  MapReader r(source, node, path,
              {"name", "topology", "domain_size", "bandwidth", "link_bandwidth", "latency", "devices_per_nic",
               "switch_radix", "oversubscription", "planes", "in_network_reduction", "efficiency"});
  TierSpec t;
  r.read_string("name", &t.name, Need::kRequired);
  r.read_enum("topology", &t.topology, Need::kRequired, topology_names());
  r.read_int("domain_size", &t.domain_size, Need::kOptional, 0, kMaxDevices);
  r.read_quantity("bandwidth", &t.bandwidth, Quantity::kBandwidth, Need::kRequired, link_bandwidth_range());
  if (t.topology == Topology::kFullMesh) {
    r.read_quantity("link_bandwidth", &t.link_bandwidth, Quantity::kBandwidth, Need::kRequired,
                    link_bandwidth_range());
  } else if (r.has("link_bandwidth")) {
    r.fail("link_bandwidth", std::string("is used only by topology full_mesh, not ") + to_string(t.topology),
           r.text_of("link_bandwidth"), "remove it, or set topology: full_mesh");
  }
  r.read_quantity("latency", &t.latency, Quantity::kTime, Need::kRequired, link_latency_range());
  r.read_int("devices_per_nic", &t.devices_per_nic, Need::kOptional, 1, kMaxDevicesPerNic);
  r.read_int("switch_radix", &t.switch_radix, Need::kOptional, 1, kMaxSwitchRadix);
  if (t.switch_radix < 4) {  // a tree switch splits its ports into at least 2 down and 2 up
    r.fail("switch_radix", "a switch needs at least 4 ports (2 down, 2 up)", std::to_string(t.switch_radix),
           "an integer in 4.." + std::to_string(kMaxSwitchRadix) + ", e.g. 32 or 64");
  }
  r.read_number("oversubscription", &t.oversubscription, Need::kOptional, oversubscription_range());
  r.read_int("planes", &t.planes, Need::kOptional, 1, kMaxPlanes);
  r.read_bool("in_network_reduction", &t.in_network_reduction, Need::kOptional);
  r.read_number("efficiency", &t.efficiency, Need::kOptional, efficiency_range());
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
  MapReader r(source, root, "", {"name", "description", "accelerator", "tiers", "max_devices", "uncalibrated"});
  PlatformSpec p;
  p.source_file = source.file();
  r.read_string("name", &p.name, Need::kRequired);
  r.read_string("description", &p.description, Need::kOptional, true);
  p.accelerator = read_accelerator(r);
  const std::vector<YAML::Node> tiers = r.list("tiers", Need::kRequired);
  if (tiers.empty()) {
    r.fail("tiers", "needs at least one tier", "an empty list",
           "a list of tiers, innermost first, each with name, topology, bandwidth, latency");
  }
  for (size_t i = 0; i < tiers.size(); ++i) {
    p.tiers.push_back(read_tier(source, tiers[i], r.key_path("tiers." + std::to_string(i))));
  }
  check_tier_nesting(source, p.tiers);
  r.read_int("max_devices", &p.max_devices, Need::kOptional, 0, kMaxDevices);
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
