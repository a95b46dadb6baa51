// A platform's `uncalibrated:` list: key paths of values no measurement supports, kept with the
// value as written so check and simulate can print them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "sim/config/loader.hpp"
#include "tests/config/config_test_support.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;
using namespace trainsim::config_test;
namespace fs = std::filesystem;

namespace {
}

TEST_CASE("uncalibrated keys keep their value as written and their order", "[config]") {
  const PlatformSpec p = load_platform((fixtures() / "platform-uncalibrated.yaml").string());
  REQUIRE(p.uncalibrated.size() == 2);
  CHECK(p.uncalibrated[0].key == "tiers.0.latency");
  CHECK(p.uncalibrated[0].value == "1us");  // as written in the file, unit and all
  CHECK(p.uncalibrated[1].key == "accelerator.kernel_overhead");
  CHECK(p.uncalibrated[1].value == "5us");
}

TEST_CASE("a platform without the list has no uncalibrated parameters", "[config]") {
  CHECK(load_platform((fixture_data() / "platforms/tiny-cluster.yaml").string()).uncalibrated.empty());
  // The calibrated H100 preset says nothing is uncalibrated.
  CHECK(load_platform((kRoot / "platforms/dgx-h100-superpod.yaml").string()).uncalibrated.empty());
}

TEST_CASE("the Blackwell presets mark every efficiency carried over from H100 as uncalibrated", "[config]") {
  for (const char* name : {"dgx-b200", "gb200-nvl72", "gb300-nvl72"}) {
    INFO(name);
    const PlatformSpec p = load_platform((kRoot / "platforms" / (std::string(name) + ".yaml")).string());
    std::vector<std::string> keys;
    for (const auto& u : p.uncalibrated) keys.push_back(u.key);
    for (const char* k : {"accelerator.gemm_efficiency", "accelerator.attention_efficiency",
                          "accelerator.memory_efficiency", "accelerator.kernel_overhead", "tiers.0.efficiency",
                          "tiers.1.efficiency"}) {
      INFO(k);
      CHECK(std::find(keys.begin(), keys.end(), k) != keys.end());
    }
  }
}

TEST_CASE("a key in uncalibrated that the platform does not give fails at the entry", "[config]") {
  const ConfigError e = config_error([&] {
    (void)load_platform((fixtures() / "broken_parts/platform-uncalibrated-unknown.yaml").string());
  });
  CHECK(e.key_path() == "uncalibrated.1");
  CHECK(std::string(e.what()).find("accelerator.atention_efficiency") != std::string::npos);
  CHECK(e.line() > 0);
}
