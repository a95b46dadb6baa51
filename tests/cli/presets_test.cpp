// Every bundled preset loads, and every name a preset or run uses resolves.
#include <catch2/catch.hpp>
#include <filesystem>

#include "sim/config/loader.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> yaml_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".yaml") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

TEST_CASE("every platform preset loads and is named after its file", "[presets]") {
  const auto files = yaml_files(kRoot / "platforms");
  CHECK(files.size() >= 4);  // DGX A100, DGX H100, Ascend 910B pod, CloudMatrix384
  for (const auto& f : files) {
    INFO(f);
    CHECK(load_platform(f.string()).name == f.stem().string());
  }
}

TEST_CASE("every model preset loads and is named after its file", "[presets]") {
  const auto files = yaml_files(kRoot / "workloads/models");
  CHECK(files.size() >= 14);
  for (const auto& f : files) {
    INFO(f);
    CHECK(load_model(f.string()).name == f.stem().string());
  }
}

TEST_CASE("every run names a model and platform that resolve", "[presets]") {
  for (const auto& f : yaml_files(kRoot / "workloads")) {
    INFO(f);
    const RunSpec run = load_run(f);
    CHECK_FALSE(run.model.name.empty());
    CHECK_FALSE(run.platform.name.empty());
  }
}

TEST_CASE("every framework preset loads and is named after its file", "[presets]") {
  const auto files = yaml_files(kRoot / "workloads/frameworks");
  CHECK(files.size() >= 4);  // megatron-lm, megatron-core, megatron-deepspeed, mindspeed
  for (const auto& f : files) {
    INFO(f);
    CHECK(load_framework(f.string()).name == f.stem().string());
  }
}

TEST_CASE("the runs that fit a framework parameter load", "[presets]") {
  const auto files = yaml_files(kRoot / "validation/frameworks");
  CHECK(files.size() == 2);  // the blocking / asynchronous pair of megatron-deepspeed's launch fit
  for (const auto& f : files) {
    INFO(f);
    CHECK(load_run(f).framework.name.rfind("megatron-deepspeed", 0) == 0);
  }
}
