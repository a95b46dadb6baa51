// What is not a readable YAML file of bounded size is refused before it is read, each with its
// own reason (issue 18: a directory or /dev/zero was "file not found", deep nesting yaml-cpp's
// bare "bad file").
#include <catch2/catch.hpp>

#include <fstream>

#include "sim/config/loader.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

TEST_CASE("a directory given as a run file is named a directory", "[config][files]") {
  const auto dir = write_yaml("dir-probe.yaml", "").parent_path() / "a-folder.yaml";
  std::filesystem::create_directories(dir);
  const ConfigError e = config_error([&] { (void)load_run(dir); });
  CHECK(e.key_path() == "(file)");
  CHECK_THAT(e.what(), Catch::Contains("is a directory, not a file"));
}

TEST_CASE("a device such as /dev/zero is refused without reading it", "[config][files]") {
  if (!std::filesystem::exists("/dev/zero")) return;  // not a Unix-like system
  const ConfigError e = config_error([&] { (void)load_model("/dev/zero"); });
  CHECK_THAT(e.what(), Catch::Contains("is not a regular file"));
}

TEST_CASE("a missing file is reported as not found", "[config][files]") {
  const ConfigError e = config_error([&] { (void)load_platform("/nonexistent/platform.yaml"); });
  CHECK_THAT(e.what(), Catch::Contains("file not found"));
}

TEST_CASE("a file over 16 MiB is refused before it is read", "[config][files]") {
  const auto file = write_yaml("big.yaml", "name: m\n");
  std::filesystem::resize_file(file, (16u << 20) + 1);  // a sparse file: no 16 MiB written
  const ConfigError e = config_error([&] { (void)load_model(file.string()); });
  CHECK_THAT(e.what(), Catch::Contains("more than the 16 MiB a config file may be"));
}

TEST_CASE("nesting deeper than the parser takes says so with a line", "[config][files]") {
  // 100,000 nested flow lists on line 2 (issue 18's reproducer was 100k deep).
  const std::string deep = "name: m\nlayers: " + std::string(100000, '[') + std::string(100000, ']') + "\n";
  const ConfigError e = config_error([&] { (void)load_model(write_yaml("deep.yaml", deep).string()); });
  CHECK(e.line() == 2);
  CHECK_THAT(e.what(), Catch::Contains("maps or lists deep, more than the YAML parser takes"));
}
