// tests/config/fixtures/broken/*.yaml are runs with one fault each; a comment line
// "# expect-key: <key.path>" says which key the ConfigError must name. The CLI tests run
// `trainsim check` on the same files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <vector>

#include "sim/config/loader.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

namespace {
std::string expected_key(const std::filesystem::path& file) {
  std::ifstream in(file);
  const std::string marker = "# expect-key: ";
  for (std::string line; std::getline(in, line);) {
    if (line.compare(0, marker.size(), marker) == 0) return line.substr(marker.size());
  }
  return "";
}
}  // namespace

TEST_CASE("each broken run fixture fails with a ConfigError naming its expected key", "[config]") {
  ScopedDataDir data(fixture_data());
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(fixtures() / "broken")) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 30);  // guards against the folder going missing
  for (const auto& file : files) {
    INFO(file.filename().string());
    const std::string key = expected_key(file);
    REQUIRE_FALSE(key.empty());
    const ConfigError e = config_error([&] { (void)load_run(file); });
    INFO(e.what());
    CHECK(e.key_path() == key);
    CHECK(e.line() > 0);  // every fault in a file has a line
  }
}
