// Physical quantities outside their plausible range stop at load time with the key, the value
// and the range (sim/config/plausible_ranges.hpp; documented in docs/schema.md).
#include <catch2/catch.hpp>

#include <string>

#include "sim/config/loader.hpp"
#include "sim/config/plausible_ranges.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

namespace {
ConfigError platform_error(const std::string& set) {
  const auto file = write_yaml("ranges.yaml", run_yaml());
  return config_error([&] { (void)load_run(file, {set}); });
}
}  // namespace

TEST_CASE("a link bandwidth of 1e-300 B/s is refused with the plausible range", "[config][ranges]") {
  // issue 18: it deadlocked the replay, which printed "iteration time inf s" and "-nan%".
  const ConfigError e = platform_error("platform.tiers.1.bandwidth=1e-300Bps");
  CHECK(e.key_path() == "tiers.1.bandwidth");
  CHECK_THAT(e.what(), Catch::Contains("outside the plausible range (got '1e-300Bps')"));
  CHECK_THAT(e.what(), Catch::Contains("a bandwidth from 1MBps to 1PBps"));
}

TEST_CASE("an efficiency of 1e-300 and a kernel overhead of 1e300 s are refused", "[config][ranges]") {
  // issue 18: both gave stage times of 1e94 s, printed with exit 0.
  const ConfigError eff = platform_error("platform.accelerator.gemm_efficiency=1e-300");
  CHECK(eff.key_path() == "accelerator.gemm_efficiency");
  CHECK_THAT(eff.what(), Catch::EndsWith("valid: a number in [0.01, 1]"));
  const ConfigError launch = platform_error("platform.accelerator.kernel_overhead=1e300s");
  CHECK(launch.key_path() == "accelerator.kernel_overhead");
  CHECK_THAT(launch.what(), Catch::Contains("a duration from 0s to 10ms"));
}

TEST_CASE("each range's bounds are inside it and its neighbours outside", "[config][ranges]") {
  for (const QuantityRange& r : {peak_flop_rate_range(), device_memory_range(), memory_bandwidth_range(),
                                 kernel_overhead_range(), link_bandwidth_range(), link_latency_range(),
                                 bucket_size_range(), framework_overhead_range()}) {
    INFO(r.text());
    CHECK(r.lo < r.hi);
    CHECK(r.contains(r.lo));
    CHECK(r.contains(r.hi));
    CHECK_FALSE(r.contains(r.hi * 2));
    CHECK_FALSE(r.contains(r.lo > 0 ? r.lo / 2 : -1));
  }
}

TEST_CASE("a switch of fewer than 4 ports is refused with its line", "[config][ranges]") {
  // 0 and negatives get the same reason and range as 1-3, not a range of their own.
  for (const char* radix : {"2", "0", "-8"}) {
    INFO(radix);
    const ConfigError e = platform_error(std::string("platform.tiers.1.switch_radix=") + radix);
    CHECK(e.key_path() == "tiers.1.switch_radix");
    CHECK_THAT(e.what(), Catch::Contains("a switch needs at least 4 ports (2 down, 2 up)"));
    CHECK_THAT(e.what(), Catch::Contains("an integer in 4..65536"));
  }
  const PlatformSpec p = load_platform((fixture_data() / "platforms/tiny-cluster.yaml").string());
  CHECK(p.tiers.at(1).switch_radix == 32);  // the fixture's own radix loads
}

TEST_CASE("devices that do not fill whole nodes are refused at devices", "[config][ranges]") {
  // tiny-cluster has nodes of 4; 6 devices = tp 2 * dp 3 would leave half a node.
  const auto file = write_yaml("nodes.yaml", run_yaml("strategy: {tp: 2, dp: 3}"));
  const ConfigError e = config_error([&] { (void)load_run(file, {"devices=6", "global_batch=18"}); });
  CHECK(e.key_path() == "devices");
  CHECK_THAT(e.what(), Catch::Contains("is not a whole number of nodes ('nvlink' domains)"));
  CHECK_THAT(e.what(), Catch::Contains("would leave the last one with 2"));  // 6 = 4 + 2
  CHECK_THAT(e.what(), Catch::EndsWith("valid: a multiple of 4 (e.g. 4 or 8), or at most 4 devices"));
  // 2 devices (less than one node) and 8 (two nodes) load.
  CHECK_NOTHROW((void)load_run(file, {"devices=2", "strategy.dp=1", "strategy.tp=2"}));
  CHECK_NOTHROW((void)load_run(file, {"devices=8", "strategy.dp=4"}));
}

TEST_CASE("devices that do not fill whole domains of an outer tier are refused at devices", "[config][ranges]") {
  // platform-pods: nodes of 4, pods of 8, a spine over all. 12 devices fill three nodes but only
  // one and a half pods (12 = 8 + 4), so the second pod would have half its leaf.
  const std::string platform = (fixtures() / "platform-pods.yaml").string();
  const auto file = write_yaml("pods.yaml", run_yaml("strategy: {tp: 4, dp: 3}"));
  const std::vector<std::string> pods = {"platform=" + platform, "global_batch=12"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), pods.begin(), pods.end());
    return extra;
  };
  const ConfigError e = config_error([&] { (void)load_run(file, with({"devices=12"})); });
  CHECK(e.key_path() == "devices");
  CHECK_THAT(e.what(), Catch::Contains("is not a whole number of 'pod' domains"));
  CHECK_THAT(e.what(), Catch::Contains("tiers.1.domain_size"));
  CHECK_THAT(e.what(), Catch::EndsWith("valid: a multiple of 8 (e.g. 8 or 16), or at most 8 devices"));
  // Inside one pod (4 devices: one node) and two whole pods (16) load.
  CHECK_NOTHROW((void)load_run(file, with({"devices=4", "strategy.dp=1"})));
  CHECK_NOTHROW((void)load_run(file, with({"devices=16", "strategy.dp=4", "global_batch=16"})));
}
