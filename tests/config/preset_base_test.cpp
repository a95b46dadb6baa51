// Presets that start from another preset: base: + set: (sim/config/preset_base.hpp).
#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

namespace {
std::string tiny_cluster() { return (fixture_data() / "platforms/tiny-cluster.yaml").string(); }
}  // namespace

TEST_CASE("a platform with a base changes only the keys its set names", "[config][base]") {
  const auto file = write_yaml("fast-ib.yaml",
                               "base: " + tiny_cluster() + "\n"
                               "name: tiny-fast-ib\n"
                               "description: \"tiny-cluster with 800 Gb/s rails\"\n"
                               "set: {tiers.1.bandwidth: 800Gbps, accelerator.memory_capacity: 32GiB}\n");
  const PlatformSpec base = load_platform(tiny_cluster());
  const PlatformSpec p = load_platform(file.string());
  CHECK(p.name == "tiny-fast-ib");
  CHECK(p.description == "tiny-cluster with 800 Gb/s rails");
  CHECK(p.tiers[1].bandwidth == 100e9);                     // 800 Gb/s = 100 GB/s
  CHECK(p.accelerator.memory_capacity == 32.0 * 1024 * 1024 * 1024);
  CHECK(p.tiers[0].bandwidth == base.tiers[0].bandwidth);   // the rest is the base's
  CHECK(p.accelerator.gemm_efficiency == base.accelerator.gemm_efficiency);
  // A base may have a base.
  const auto twice = write_yaml("faster.yaml", "base: " + file.string() + "\nname: tiny-faster\nset: {tiers.0.latency: 2us}\n");
  const PlatformSpec q = load_platform(twice.string());
  CHECK(q.tiers[1].bandwidth == 100e9);
  CHECK(q.tiers[0].latency == Approx(2e-6));
}

TEST_CASE("a model with a base changes only the keys its set names", "[config][base]") {
  const std::string tiny = (fixture_data() / "workloads/models/tiny-dense.yaml").string();
  const auto file = write_yaml("deeper.yaml", "base: " + tiny + "\nname: tiny-deeper\nset: {layers: 8}\n");
  const ModelSpec m = load_model(file.string());
  CHECK(m.name == "tiny-deeper");
  CHECK(m.layers == 8);
  CHECK(m.hidden == load_model(tiny).hidden);
}

TEST_CASE("a bad set entry names the derived file and its line and key", "[config][base]") {
  const auto file = write_yaml("slow.yaml", "base: " + tiny_cluster() + "\nname: slow\nset:\n  tiers.1.bandwidth: 1e-300Bps\n");
  const ConfigError e = config_error([&] { (void)load_platform(file.string()); });
  CHECK_THAT(e.what(), Catch::Contains(file.string() + ":4: set.tiers.1.bandwidth"));
}

TEST_CASE("only name description and set may stand beside base and a loop of bases stops", "[config][base]") {
  const auto extra = write_yaml("extra.yaml", "base: " + tiny_cluster() + "\nname: x\ntiers: []\n");
  CHECK_THAT(config_error([&] { (void)load_platform(extra.string()); }).what(),
             Catch::Contains("tiers") && Catch::Contains("base, name, description, set"));
  const auto a = scratch_dir() / "loop-a.yaml";
  const auto b = scratch_dir() / "loop-b.yaml";
  (void)write_yaml("loop-a.yaml", "base: " + b.string() + "\nname: a\n");
  (void)write_yaml("loop-b.yaml", "base: " + a.string() + "\nname: b\n");
  CHECK_THAT(config_error([&] { (void)load_platform(a.string()); }).what(), Catch::Contains("more than 8 bases"));
}

TEST_CASE("a key path given twice in set is refused at its second line, in flow and block form", "[config][base]") {
  const auto block = write_yaml("twice-block.yaml", "base: " + tiny_cluster() +
                                                        "\nname: twice\nset:\n  tiers.1.bandwidth: 800Gbps\n"
                                                        "  tiers.1.bandwidth: 100Gbps\n");
  const ConfigError e = config_error([&] { (void)load_platform(block.string()); });
  CHECK_THAT(e.what(), Catch::Contains(block.string() + ":5: set.tiers.1.bandwidth") &&
                           Catch::Contains("key appears twice in this map"));
  const std::string tiny = (fixture_data() / "workloads/models/tiny-dense.yaml").string();
  const auto flow = write_yaml("twice-flow.yaml", "base: " + tiny + "\nname: twice\nset: {layers: 8, layers: 16}\n");
  CHECK_THAT(config_error([&] { (void)load_model(flow.string()); }).what(), Catch::Contains("set.layers"));
}
