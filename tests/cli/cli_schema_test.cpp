// `trainsim schema`: the input schema generated from the loaders' key tables, and what `check`
// says about a platform's left-out keys and shared NICs.
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/run_command.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {
}

TEST_CASE("docs/schema.md is exactly what trainsim schema prints", "[cli]") {
  const CommandResult r = run_trainsim("schema");
  REQUIRE(r.exit_code == 0);
  // Regenerate with: build/trainsim schema --out docs/schema.md
  CHECK(r.out == slurp((kRoot / "docs/schema.md").string()));
}

TEST_CASE("trainsim schema prints one part, and refuses an unknown one with exit 2", "[cli]") {
  const std::string whole = run_trainsim("schema").out;
  for (const char* part : {"platform", "model", "run", "framework"}) {
    INFO(part);
    const CommandResult r = run_trainsim(std::string("schema ") + part);
    CHECK(r.exit_code == 0);
    CHECK(!r.out.empty());
    CHECK(whole.find(r.out) != std::string::npos);  // a section of the whole page
  }
  // Rows come from the tables: the loader's range and the struct's default.
  const std::string platform = run_trainsim("schema platform").out;
  CHECK(platform.find("| `tiers.N.efficiency` | a number in [0.01, 1] | `1` |") != std::string::npos);
  CHECK(platform.find("| `accelerator.kernel_overhead` | a duration from 0s to 10ms | `0s` |") != std::string::npos);
  CHECK(run_trainsim("schema run").out.find("| `strategy.keep_in_domain` |") != std::string::npos);
  const CommandResult bad = run_trainsim("schema gadget");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("valid: platform, model, run, framework") != std::string::npos);
}

TEST_CASE("check states the platform keys that took defaults", "[cli]") {
  // dgx-h100-superpod gives every applicable key but the NVLink tier's planes (default 1).
  const CommandResult r = run_trainsim("check " + (kRoot / "workloads/default.yaml").string());
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("defaults   1 platform key(s) not in the file took their defaults:\n             tiers.0.planes = 1\n") !=
        std::string::npos);
  // A fixture that leaves out its tiers' efficiencies says so (tests/config/platform_defaults_test).
  const CommandResult fixture = run_trainsim("check " + (kRoot / "tests/config/fixtures/full-run.yaml").string());
  INFO(fixture.err);
  CHECK(fixture.out.find("tiers.1.efficiency = 1") != std::string::npos);
}

TEST_CASE("check states the bandwidth per NIC where devices share one", "[cli]") {
  // jean-zay-a100: 50 Gb/s per GPU, two GPUs per Omni-Path NIC -> 100 Gb/s (12.5 GB/s) per NIC.
  const CommandResult r = run_trainsim("check " + (kRoot / "workloads/default.yaml").string() +
                                       " --set platform=jean-zay-a100");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("nic        'opa' (tiers.1): 2 devices share each NIC; bandwidth is per device: 50 Gb/s x 2 "
                   "devices = 100 Gb/s (12.5 GB/s) per NIC\n") != std::string::npos);
  // One NIC per GPU (the default run's platform): no such line.
  CHECK(run_trainsim("check " + (kRoot / "workloads/default.yaml").string()).out.find("nic  ") == std::string::npos);
}
