// The pipeline schedule is checked when the run is loaded, in closed form, at the key
// strategy.schedule (or global_batch for the expansion bound), with the line it was read from.
#include <catch2/catch.hpp>

#include <chrono>

#include "sim/config/loader.hpp"
#include "sim/graph/schedule.hpp"
#include "tests/config/config_test_support.hpp"

using namespace trainsim;
using namespace trainsim::config_test;

namespace {
// run_yaml() puts the strategy on line 8 (name, model, platform, devices, precision, seq_len,
// global_batch come first).
constexpr int kStrategyLine = 8;
}  // namespace

TEST_CASE("an unknown schedule name is an error at strategy.schedule with its line", "[config][schedule]") {
  const auto file = write_yaml("sched.yaml", run_yaml("strategy:\n  tp: 4\n  dp: 2\n  schedule: my-schedule"));
  const ConfigError e = config_error([&] { (void)load_run(file); });
  CHECK(e.key_path() == "strategy.schedule");
  CHECK(e.line() == kStrategyLine + 3);
  CHECK_THAT(e.what(), Catch::Contains("(got 'my-schedule'); valid: 1f1b, gpipe, interleaved, zb-h1"));
}

TEST_CASE("interleaved needs m to be a multiple of pp and says so at strategy.schedule", "[config][schedule]") {
  // 8 devices as pp 2 * dp 4; tiny-dense's 4 layers make pp 2 * v 2 chunks of one layer.
  // global_batch 16 / dp 4 = m 4 is a multiple of p = 2; global_batch 12 / dp 4 = m 3 is not.
  const auto file = write_yaml("inter.yaml", run_yaml("strategy: {tp: 1, pp: 2, dp: 4, schedule: interleaved, "
                                                      "virtual_stages: 2}"));
  CHECK_NOTHROW((void)load_run(file));
  const ConfigError e = config_error([&] { (void)load_run(file, {"global_batch=12"}); });
  CHECK(e.key_path() == "strategy.schedule");
  CHECK(e.line() == kStrategyLine);
  CHECK_THAT(e.what(), Catch::Contains("must be a multiple of the pipeline stages (p = 2)"));
}

TEST_CASE("a schedule of one chunk refuses virtual_stages above 1 at strategy.schedule", "[config][schedule]") {
  const auto file = write_yaml("chunks.yaml", run_yaml("strategy: {tp: 1, pp: 2, dp: 4, virtual_stages: 2}"));
  const ConfigError e = config_error([&] { (void)load_run(file); });
  CHECK(e.key_path() == "strategy.schedule");
  CHECK_THAT(e.what(), Catch::Contains("runs one model chunk per stage"));
}

TEST_CASE("a global batch past the expansion bound is refused at load time without expanding", "[config][schedule]") {
  // tp 2 * pp 4 = 8 devices, dp 1: m = global_batch. 2147483647 once overflowed 2*m; 2e9
  // allocated 12 GB. Both now stop at the bound, naming global_batch and the limit.
  const auto file = write_yaml("huge.yaml", run_yaml("strategy: {tp: 2, pp: 4}"));
  for (const std::string gb : {"2147483647", "2000000000", "400000000"}) {
    INFO(gb);
    const auto start = std::chrono::steady_clock::now();
    const ConfigError e = config_error([&] { (void)load_run(file, {"global_batch=" + gb}); });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(e.key_path() == "global_batch");
    CHECK_THAT(e.what(), Catch::Contains("exceeds the limit of " + std::to_string(kMaxChunkPassesPerStage)));
    CHECK(seconds < 1.0);
  }
  // The bound itself is allowed: m = 65536 with dp 1 and micro_batch 1.
  CHECK_NOTHROW((void)load_run(file, {"global_batch=" + std::to_string(kMaxChunkPassesPerStage)}));
}

TEST_CASE("a global batch whose layer passes per stage pass the bound is refused naming it", "[config][schedule]") {
  // 64 layers on one stage (pp 1), dp 2: m = global_batch / 2. The layer-pass bound allows
  // m <= 2^18 / 64 = 4096, i.e. global_batch <= 8192, long before m * v reaches 2^16.
  const auto file = write_yaml("layers.yaml", run_yaml());
  const std::vector<std::string> deep = {"model.layers=64"};
  const long long largest = kMaxLayerPassesPerStage / 64 * 2;
  std::vector<std::string> over = deep, at = deep;
  over.push_back("global_batch=" + std::to_string(largest + 2));
  at.push_back("global_batch=" + std::to_string(largest));
  const ConfigError e = config_error([&] { (void)load_run(file, over); });
  CHECK(e.key_path() == "global_batch");
  CHECK_THAT(e.what(), Catch::Contains("layer passes per stage exceeds the limit of " +
                                       std::to_string(kMaxLayerPassesPerStage)));
  CHECK_THAT(e.what(), Catch::Contains("valid: at most " + std::to_string(largest)));
  CHECK_NOTHROW((void)load_run(file, at));
}
