#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

TEST_CASE("data_dir is TRAINSIM_DATA_DIR when set, else the source tree", "[config]") {
  {
    ScopedDataDir data(fixture_data());
    CHECK(data_dir() == fixture_data());
  }
  ScopedDataDir data("");
  CHECK(data_dir() == std::filesystem::path(TRAINSIM_DATA_DIR));  // an empty value counts as unset
}

TEST_CASE("preset listings are sorted by name, with descriptions, skipping unreadable files", "[config]") {
  ScopedDataDir data(fixture_data());
  const auto platforms = list_platform_presets();
  REQUIRE(platforms.size() == 3);  // unreadable.yaml is not valid YAML and is left out
  CHECK(platforms[0].name == "mesh-box");
  CHECK(platforms[0].description == "Eight accelerators, a direct link between every pair");
  CHECK(platforms[0].path == fixture_data() / "platforms/mesh-box.yaml");
  CHECK(platforms[1].name == "tiny-cluster");
  CHECK(platforms[2].name == "tiny-fp8-cluster");

  const auto models = list_model_presets();
  REQUIRE(models.size() == 3);
  CHECK(models[0].name == "tiny-dense");
  CHECK(models[1].name == "tiny-moe");
  CHECK(models[2].name == "tiny-moe-routed");

  const auto runs = list_run_presets();  // workloads/*.yaml only, not workloads/models/
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].name == "tiny-run");
  CHECK(runs[0].description == "tiny-dense on two tiny-cluster nodes");
}

TEST_CASE("a data folder without presets lists none", "[config]") {
  ScopedDataDir data(fixtures() / "no-such-folder");
  CHECK(list_platform_presets().empty());
  CHECK(list_model_presets().empty());
  CHECK(list_run_presets().empty());
}
