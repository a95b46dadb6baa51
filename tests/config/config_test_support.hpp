// Helpers shared by the [config] tests: fixture paths, YAML written to a scratch folder,
// TRAINSIM_DATA_DIR pointed at the fixture presets, and capturing the ConfigError a load throws.
#pragma once
#include <catch2/catch.hpp>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>

#include "sim/core/error.hpp"

namespace trainsim::config_test {

inline std::filesystem::path fixtures() { return std::filesystem::path(TRAINSIM_TEST_DIR) / "config" / "fixtures"; }
inline std::filesystem::path fixture_data() { return fixtures() / "data"; }

inline std::filesystem::path scratch_dir() {
  return std::filesystem::temp_directory_path() / ("trainsim-config-" + std::to_string(::getpid()));
}

// Removes this process's scratch folder when the test binary exits.
inline struct ScratchCleanup {
  ~ScratchCleanup() {
    std::error_code ec;
    std::filesystem::remove_all(scratch_dir(), ec);
  }
} scratch_cleanup;

// Writes `text` to <tmp>/trainsim-config-<pid>/<name> and returns that path. Line 1 of the
// file is the first line of `text`, so tests can count lines in the literal.
inline std::filesystem::path write_yaml(const std::string& name, const std::string& text) {
  const auto dir = scratch_dir();
  std::filesystem::create_directories(dir);
  const auto file = dir / name;
  std::ofstream(file) << text;
  return file;
}

// Points TRAINSIM_DATA_DIR at `dir` for the lifetime of this object.
class ScopedDataDir {
 public:
  explicit ScopedDataDir(const std::filesystem::path& dir) {
    if (const char* old = std::getenv("TRAINSIM_DATA_DIR")) old_ = old;
    ::setenv("TRAINSIM_DATA_DIR", dir.c_str(), 1);
  }
  ~ScopedDataDir() {
    if (old_) {
      ::setenv("TRAINSIM_DATA_DIR", old_->c_str(), 1);
    } else {
      ::unsetenv("TRAINSIM_DATA_DIR");
    }
  }
  ScopedDataDir(const ScopedDataDir&) = delete;
  ScopedDataDir& operator=(const ScopedDataDir&) = delete;

 private:
  std::optional<std::string> old_;
};

// Runs `load` and returns the ConfigError it throws; fails the test when it throws none.
template <class F>
ConfigError config_error(F&& load) {
  try {
    load();
  } catch (const ConfigError& e) {
    return e;
  }
  FAIL("expected a ConfigError, none was thrown");
  throw std::logic_error("unreachable");
}

// A run that is valid against the fixture model/platform, with `extra` lines appended and
// `strategy` as its strategy line. The model and platform are absolute fixture paths.
inline std::string run_yaml(const std::string& strategy = "strategy: {tp: 4, dp: 2}",
                            const std::string& extra = "") {
  return "name: test-run\n"
         "model: " + (fixture_data() / "workloads/models/tiny-dense.yaml").string() + "\n"
         "platform: " + (fixture_data() / "platforms/tiny-cluster.yaml").string() + "\n"
         "devices: 8\n"
         "precision: bf16\n"
         "seq_len: 2048\n"
         "global_batch: 16\n" + strategy + "\n" + extra;
}

}  // namespace trainsim::config_test
