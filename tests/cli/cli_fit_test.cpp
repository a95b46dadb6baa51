// `trainsim fit` end to end on a small design: the same seed gives the same runs and the same theta;
// the theta file it writes is what `estimate` reads; estimate warns where formula and replay differ
// by more than the file's held-out error; bad options are refused.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {
}  // namespace

// The file is byte-identical (no date: its provenance is the build's version, seed and runs).
TEST_CASE("fit with the same seed replays the same strategies and writes the same theta", "[cli][fit]") {
  const std::string a = scratch("trainsim_fit_a.theta.yaml"), b = scratch("trainsim_fit_b.theta.yaml");
  const CommandResult r1 = run_trainsim("fit --platform dgx-a100-superpod --samples 8 --seed 3 --out " + a);
  const CommandResult r2 = run_trainsim("fit --platform dgx-a100-superpod --samples 8 --seed 3 --out " + b);
  INFO(r1.err);
  REQUIRE(r1.exit_code == 0);
  REQUIRE(r2.exit_code == 0);
  CHECK(r1.out.find("6 train, 2 test") != std::string::npos);  // a quarter held out
  CHECK(slurp(a) == slurp(b));
  for (const char* key : {"theta:", "compute_scale:", "test_error:", "provenance:", "seed: 3", "samples: 8",
                          "trainsim: \"trainsim " TRAINSIM_PROJECT_VERSION})
    CHECK(slurp(a).find(key) != std::string::npos);
  // estimate reads what fit wrote.
  const CommandResult e = run_trainsim("estimate " + kDefault + " --no-replay --set platform=dgx-a100-superpod --theta " + a);
  CHECK(e.exit_code == 0);
  CHECK(e.out.find(a) != std::string::npos);
}

// A theta file claiming a held-out error of 1e-9: any real difference exceeds it.
TEST_CASE("estimate warns where formula and replay differ by more than the fitted test error", "[cli][fit]") {
  const std::string path = scratch("trainsim_tight.theta.yaml");
  std::ofstream(path) << "platform: dgx-h100-superpod\ntheta: {compute_scale: 1.01}\ntest_error: {mean: 1e-9, max: 1e-9}\n";
  const CommandResult r = run_trainsim("estimate " + kDefault + " --set model.layers=4 --theta " + path);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("warning: formula and replay differ by") != std::string::npos);
}

// The version is CMake's project VERSION (passed to the tests separately), then the git commit.
TEST_CASE("trainsim --version prints the project version of the build", "[cli][fit]") {
  const CommandResult r = run_trainsim("--version");
  CHECK(r.exit_code == 0);
  CHECK(r.out.rfind("trainsim " TRAINSIM_PROJECT_VERSION, 0) == 0);
}

TEST_CASE("fit refuses a missing platform and a bad sample count, naming the option", "[cli][fit]") {
  const CommandResult none = run_trainsim("fit");
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("--platform") != std::string::npos);
  const CommandResult bad = run_trainsim("fit --platform dgx-h100-superpod --samples two");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--samples: 'two'") != std::string::npos);
}

TEST_CASE("a theta file with an unknown coefficient is refused, naming the file and the valid keys", "[cli][fit]") {
  const std::string path = scratch("trainsim_bad.theta.yaml");
  std::ofstream(path) << "platform: x\ntheta: {speedup: 2}\n";
  const CommandResult r = run_trainsim("estimate " + kDefault + " --no-replay --theta " + path);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(path) != std::string::npos);
  CHECK(r.err.find("compute_scale") != std::string::npos);
}

TEST_CASE("fit says a kind has no held-out run rather than printing a 0% error for it", "[cli][fit]") {
  // Four runs hold one out (a quarter); with the default seed on this platform it is an MoE run, so
  // the dense kind has none.
  const std::string out = scratch("trainsim_fit_one_test.theta.yaml");
  const CommandResult r = run_trainsim("fit --platform dgx-h100-superpod --samples 4 --out " + out);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("3 train, 1 test") != std::string::npos);
  CHECK(r.out.find("(0 runs): iteration mean") == std::string::npos);
  CHECK(r.out.find("(0 runs): none held out") != std::string::npos);
  std::remove(out.c_str());
}
