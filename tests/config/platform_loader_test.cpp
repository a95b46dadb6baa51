#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

namespace {
// A minimal valid platform; tests replace one line of it at a time. Line numbers:
// 1 name, 2 accelerator, 3 name, 4 peak_flops, 5 memory_capacity, 6 memory_bandwidth,
// 7 tiers, 8 first tier (a flow map on one line).
std::string platform_yaml(const std::string& replace_line = "", int line = 0) {
  std::vector<std::string> lines = {"name: p",
                                    "accelerator:",
                                    "  name: a",
                                    "  peak_flops: {bf16: 1PFLOPS}",
                                    "  memory_capacity: 80GiB",
                                    "  memory_bandwidth: 3.35TBps",
                                    "tiers:",
                                    "  - {name: nvl, topology: nvswitch, domain_size: 8, bandwidth: 450GBps, latency: 1us}"};
  if (line > 0) lines[static_cast<size_t>(line - 1)] = replace_line;
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}
}  // namespace

TEST_CASE("platform quantities written with units are converted to bytes, seconds and FLOP/s", "[config]") {
  const PlatformSpec p = load_platform((fixture_data() / "platforms/tiny-cluster.yaml").string());
  CHECK(p.name == "tiny-cluster");
  CHECK(p.description == "Four accelerators per node on a switch, nodes on a rail network");
  const AcceleratorSpec& a = p.accelerator;
  CHECK(a.name == "toy-gpu");
  CHECK(a.peak_flops.at(Precision::kBf16) == Approx(100e12));   // 100 TFLOPS
  CHECK(a.peak_flops.at(Precision::kFp32) == Approx(25e12));    // 25 TFLOPS
  CHECK(a.peak_flops.count(Precision::kFp8) == 0);
  CHECK(a.memory_capacity == 16.0 * 1024 * 1024 * 1024);        // 16 GiB = 16 * 2^30 bytes
  CHECK(a.memory_bandwidth == Approx(1e12));                    // 1 TBps
  CHECK(a.compute_units == 64);
  CHECK(a.gemm_tile_m == 128);
  CHECK(a.gemm_tile_n == 256);
  CHECK(a.gemm_efficiency == 0.75);
  CHECK(a.attention_efficiency == 0.5);
  CHECK(a.memory_efficiency == 0.9);
  CHECK(a.kernel_overhead == Approx(5e-6));                     // 5 us
  CHECK(a.comm_interference == 0.1);
  REQUIRE(p.tiers.size() == 2);
  CHECK(p.tiers[0].name == "nvlink");
  CHECK(p.tiers[0].topology == Topology::kNvswitch);
  CHECK(p.tiers[0].domain_size == 4);
  CHECK(p.tiers[0].bandwidth == Approx(200e9));
  CHECK(p.tiers[0].latency == Approx(1e-6));
  CHECK(p.tiers[0].in_network_reduction);
  CHECK(p.tiers[1].topology == Topology::kRailOptimized);
  CHECK(p.tiers[1].domain_size == 0);
  CHECK(p.tiers[1].bandwidth == Approx(50e9));                  // 400 Gbit/s / 8 bits per byte
  CHECK(p.tiers[1].latency == Approx(3e-6));
  CHECK(p.tiers[1].switch_radix == 32);
  CHECK(p.tiers[1].oversubscription == 2.0);
  CHECK(p.tiers[1].planes == 2);
  CHECK_FALSE(p.tiers[1].in_network_reduction);
  CHECK(p.max_devices == 64);
}

TEST_CASE("platform keys left out keep the struct defaults", "[config]") {
  const PlatformSpec p = load_platform(write_yaml("minimal-platform.yaml", platform_yaml()).string());
  const AcceleratorSpec defaults;
  const TierSpec tier_defaults;
  CHECK(p.accelerator.compute_units == defaults.compute_units);
  CHECK(p.accelerator.gemm_efficiency == defaults.gemm_efficiency);
  CHECK(p.accelerator.kernel_overhead == defaults.kernel_overhead);
  CHECK(p.accelerator.comm_interference == defaults.comm_interference);
  CHECK(p.tiers[0].devices_per_nic == tier_defaults.devices_per_nic);
  CHECK(p.tiers[0].switch_radix == tier_defaults.switch_radix);
  CHECK(p.tiers[0].planes == tier_defaults.planes);
  CHECK(p.max_devices == 0);
  CHECK(p.description.empty());
}

TEST_CASE("a full_mesh tier reads its per-link bandwidth", "[config]") {
  const PlatformSpec p = load_platform((fixture_data() / "platforms/mesh-box.yaml").string());
  REQUIRE(p.tiers.size() == 1);
  CHECK(p.tiers[0].topology == Topology::kFullMesh);
  CHECK(p.tiers[0].link_bandwidth == Approx(28e9));
  CHECK(p.accelerator.memory_bandwidth == Approx(1600e9));  // "1600GB/s"
  CHECK(p.accelerator.memory_capacity == 64e9);              // "64GB" is decimal
}

TEST_CASE("a bad unit names file, line, key path, value and the valid units", "[config]") {
  const auto file = write_yaml("bad-unit.yaml", platform_yaml("  memory_capacity: 80 parsecs", 5));
  const ConfigError e = config_error([&] { (void)load_platform(file.string()); });
  CHECK(e.file() == file.string());
  CHECK(e.line() == 5);
  CHECK(e.key_path() == "accelerator.memory_capacity");
  CHECK(std::string(e.what()) == file.string() +
                                     ":5: accelerator.memory_capacity: not a byte size (got '80 parsecs'); "
                                     "valid: a byte size: a number followed by one of " +
                                     valid_units(Quantity::kBytes));
}

TEST_CASE("a latency without a unit is rejected, since the key does not imply one", "[config]") {
  const auto file = write_yaml(
      "plain-latency.yaml",
      platform_yaml("  - {name: nvl, topology: nvswitch, domain_size: 8, bandwidth: 450GBps, latency: 1}", 8));
  const ConfigError e = config_error([&] { (void)load_platform(file.string()); });
  CHECK(e.line() == 8);
  CHECK(e.key_path() == "tiers.0.latency");
  CHECK_THAT(e.what(), Catch::Contains("a number needs a unit here (got '1')") && Catch::Contains("us, ms"));
}

TEST_CASE("efficiencies must lie between 0.01 and 1 and comm_interference between 0 and below 1", "[config]") {
  auto with_accel_line = [](const std::string& line) {
    std::string text = platform_yaml();
    return text.insert(text.find("tiers:"), line + "\n");  // becomes line 7
  };
  const auto zero = write_yaml("eff0.yaml", with_accel_line("  memory_efficiency: 0"));
  const ConfigError e0 = config_error([&] { (void)load_platform(zero.string()); });
  CHECK(e0.line() == 7);
  CHECK(e0.key_path() == "accelerator.memory_efficiency");
  CHECK_THAT(e0.what(), Catch::EndsWith("out of range (got '0'); valid: a number in [0.01, 1]"));

  const auto one = write_yaml("intf1.yaml", with_accel_line("  comm_interference: 1"));
  const ConfigError e1 = config_error([&] { (void)load_platform(one.string()); });
  CHECK(e1.key_path() == "accelerator.comm_interference");
  CHECK_THAT(e1.what(), Catch::EndsWith("(got '1'); valid: a number in [0, 1)"));
  // The two edges that are inside the intervals load.
  CHECK_NOTHROW(load_platform(write_yaml("edges.yaml", with_accel_line("  gemm_efficiency: 1\n  comm_interference: 0")).string()));
}

TEST_CASE("an unknown key is rejected with the valid keys of its map listed", "[config]") {
  const auto file = write_yaml("unknown.yaml", platform_yaml("  memory_capacty: 80GiB", 5));
  const ConfigError e = config_error([&] { (void)load_platform(file.string()); });
  CHECK(e.line() == 5);
  CHECK(e.key_path() == "accelerator.memory_capacty");
  CHECK_THAT(e.what(), Catch::Contains("unknown key (got 'memory_capacty'); valid: name, peak_flops, "
                                       "memory_capacity, memory_bandwidth, compute_units"));
}

TEST_CASE("a missing required key is named with the line of the map that lacks it", "[config]") {
  const auto file = write_yaml("missing.yaml", platform_yaml("  # memory_capacity left out", 5));
  const ConfigError e = config_error([&] { (void)load_platform(file.string()); });
  CHECK(e.key_path() == "accelerator.memory_capacity");
  CHECK(e.line() == 3);  // the accelerator map starts at its first key, line 3
  CHECK_THAT(e.what(), Catch::Contains("missing required key; valid: a byte size"));
}

TEST_CASE("counts must be whole numbers and enum values one of the listed names", "[config]") {
  const auto frac = write_yaml(
      "frac.yaml",
      platform_yaml("  - {name: nvl, topology: nvswitch, domain_size: 7.5, bandwidth: 450GBps, latency: 1us}", 8));
  const ConfigError e = config_error([&] { (void)load_platform(frac.string()); });
  CHECK(e.key_path() == "tiers.0.domain_size");
  CHECK_THAT(e.what(), Catch::EndsWith("expected a whole number (got '7.5'); valid: an integer in 0..1048576"));

  const auto topo = write_yaml(
      "topo.yaml", platform_yaml("  - {name: nvl, topology: torus, domain_size: 8, bandwidth: 450GBps, latency: 1us}", 8));
  const ConfigError t = config_error([&] { (void)load_platform(topo.string()); });
  CHECK(t.key_path() == "tiers.0.topology");
  CHECK_THAT(t.what(), Catch::EndsWith("unknown value (got 'torus'); valid: nvswitch, full_mesh, fat_tree, "
                                       "rail_optimized, clos"));
}

TEST_CASE("peak_flops keys must be precisions", "[config]") {
  const auto file = write_yaml("peak.yaml", platform_yaml("  peak_flops: {bf16: 1PFLOPS, int8: 2PFLOPS}", 4));
  const ConfigError e = config_error([&] { (void)load_platform(file.string()); });
  CHECK(e.line() == 4);
  CHECK(e.key_path() == "accelerator.peak_flops.int8");
  CHECK_THAT(e.what(), Catch::EndsWith("valid: fp32, tf32, bf16, fp16, fp8, mxfp8"));
}

TEST_CASE("an inner tier's domain must divide the next tier's domain", "[config]") {
  const std::string two_tiers = platform_yaml() +
                                "  - {name: ib, topology: fat_tree, domain_size: 20, bandwidth: 50GBps, latency: 2us}\n";
  const auto file = write_yaml("nesting.yaml", two_tiers);
  const ConfigError e = config_error([&] { (void)load_platform(file.string()); });
  CHECK(e.line() == 9);
  CHECK(e.key_path() == "tiers.1.domain_size");
  CHECK_THAT(e.what(), Catch::Contains("must be a multiple of tiers.0.domain_size (8) (got '20'); "
                                       "valid: a multiple of 8, or 0 (all devices)"));
  // 16 is a multiple of 8 and 0 means all devices: both nest.
  std::string ok = two_tiers;
  ok.replace(ok.find("domain_size: 20"), 15, "domain_size: 16");
  CHECK_NOTHROW(load_platform(write_yaml("nesting-ok.yaml", ok).string()));
}

TEST_CASE("topology names round-trip through to_string and parse_topology", "[config]") {
  for (Topology t : {Topology::kNvswitch, Topology::kFullMesh, Topology::kFatTree, Topology::kRailOptimized,
                     Topology::kClos}) {
    Topology back = Topology::kNvswitch;
    REQUIRE(parse_topology(to_string(t), &back));
    CHECK(back == t);
  }
  Topology out = Topology::kClos;
  CHECK_FALSE(parse_topology("Fat_Tree", &out));
  CHECK(out == Topology::kClos);  // untouched on failure
  CHECK(std::string(to_string(Topology::kRailOptimized)) == "rail_optimized");
}

TEST_CASE("host_slowdown defaults to 1 and must lie between 0.05 and 100", "[config]") {
  CHECK(load_platform(write_yaml("hs-default.yaml", platform_yaml()).string()).host_slowdown == 1);
  const auto grace = write_yaml("hs-grace.yaml", platform_yaml() + "host_slowdown: 2.75\n");
  CHECK(load_platform(grace.string()).host_slowdown == 2.75);
  const auto zero = write_yaml("hs-zero.yaml", platform_yaml() + "host_slowdown: 0\n");
  const ConfigError e = config_error([&] { (void)load_platform(zero.string()); });
  CHECK(e.key_path() == "host_slowdown");
  CHECK(e.line() == 9);
  CHECK_THAT(e.what(), Catch::EndsWith("out of range (got '0'); valid: a number in [0.05, 100]"));
}
