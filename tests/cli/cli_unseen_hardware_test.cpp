// The Blackwell presets (written from vendor specifications, not calibrated) as a user runs them:
// they check and simulate, and every output says which of their parameters are guesses.
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/json_check.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {
// The default run (tp 2, pp 2, dp 4 on 16 devices) grown to one 72-GPU NVLink domain: dp 18,
// 36 sequences (2 micro-batches per pipeline).
const std::string kOneRack = " --set devices=72 --set strategy.dp=18 --set global_batch=36";

double iteration_time(const std::string& json_file) {
  const std::string text = slurp(json_file);
  const auto at = text.find("\"iteration_time_s\"");
  REQUIRE(at != std::string::npos);
  return std::stod(text.substr(text.find(':', at) + 1));
}
}  // namespace

TEST_CASE("the Blackwell presets check and simulate and list their uncalibrated parameters", "[cli]") {
  for (const std::string platform : {"dgx-b200", "gb200-nvl72", "gb300-nvl72"}) {
    INFO(platform);
    const std::string sets = " --set platform=" + platform + (platform == "dgx-b200" ? "" : kOneRack);
    const CommandResult check = run_trainsim("check " + kDefault + sets);
    INFO(check.err);
    REQUIRE(check.exit_code == 0);
    CHECK(check.out.find("uncalibrated") != std::string::npos);
    CHECK(check.out.find("accelerator.gemm_efficiency = 0.6779") != std::string::npos);
    const std::string json = scratch("trainsim_unseen_" + platform + ".json");
    const CommandResult sim = run_trainsim("simulate " + kDefault + sets + " --json " + json);
    INFO(sim.err);
    REQUIRE(sim.exit_code == 0);
    CHECK(sim.out.find("uncalibrated") != std::string::npos);
    const std::string result = slurp(json);
    CHECK(JsonCheck::valid(result));
    CHECK(result.find("\"accelerator.gemm_efficiency\": \"0.6779\"") != std::string::npos);
  }
}

TEST_CASE("a calibrated preset prints no uncalibrated line", "[cli]") {
  const CommandResult check = run_trainsim("check " + kDefault);
  REQUIRE(check.exit_code == 0);
  CHECK(check.out.find("uncalibrated") == std::string::npos);
}

TEST_CASE("B200 with the H100 efficiencies is faster than H100 by less than its peak ratio", "[cli]") {
  // Same efficiencies, 2.25 / 0.989 = 2.28x the bf16 peak, 2.4x the HBM bandwidth, 2x the NVLink
  // bandwidth, the same 400 Gb/s NICs: the iteration gets faster, but by less than the compute
  // ratio, because launch overheads, latencies and the scale-out links do not speed up.
  const std::string h100 = scratch("trainsim_unseen_h100.json"), b200 = scratch("trainsim_unseen_b200.json");
  REQUIRE(run_trainsim("simulate " + kDefault + " --json " + h100).exit_code == 0);
  REQUIRE(run_trainsim("simulate " + kDefault + " --set platform=dgx-b200 --json " + b200).exit_code == 0);
  const double speedup = iteration_time(h100) / iteration_time(b200);
  CHECK(speedup > 1.5);
  CHECK(speedup < 2.25 / 0.989);
}

TEST_CASE("MXFP8 runs where the card has block-scaled tensor cores and is refused elsewhere", "[cli]") {
  const CommandResult hopper = run_trainsim("check " + kDefault + " --set precision=mxfp8");
  CHECK(hopper.exit_code == 2);
  CHECK(hopper.err.find("mxfp8") != std::string::npos);
  const std::string bf16 = scratch("trainsim_unseen_bf16.json"), mx = scratch("trainsim_unseen_mxfp8.json");
  REQUIRE(run_trainsim("simulate " + kDefault + " --set platform=dgx-b200 --json " + bf16).exit_code == 0);
  const CommandResult r = run_trainsim("simulate " + kDefault + " --set platform=dgx-b200 --set precision=mxfp8 --json " + mx);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // GEMMs at twice the rate, attention and memory-bound kernels unchanged: faster, not twice.
  CHECK(iteration_time(mx) < iteration_time(bf16));
  CHECK(iteration_time(mx) > iteration_time(bf16) / 2);
}
