// `trainsim calibrate --split check`: a diagnosis of what the check rows would want, never a preset value.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {
const fs::path kRoot = fs::path(TRAINSIM_TEST_DIR).parent_path();

// One check row: k22-22b-full (8 A100, 1.42 s measured), its run file by absolute path.
fs::path one_check_row() {
  const fs::path file = fs::temp_directory_path() / ("trainsim_check_row_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(file) << "description: one check row\nmeasurements:\n"
                      << "  - {id: k22-22b-full, run: " << (kRoot / "validation/runs/k22-22b-full.yaml").string()
                      << ", split: check, hardware: dgx-a100-superpod, metric: iteration_s, value: 1.42,"
                      << " flops_formula: none, source: \"Korthikanti et al. 2022, Table 5\"}\n";
  return file;
}
}  // namespace

TEST_CASE("calibrate --split check fits the check rows but prints no lines to paste", "[cli]") {
  const fs::path file = one_check_row();
  const CommandResult c =
      run_trainsim("calibrate " + file.string() + " --platform dgx-a100-superpod --split check --evaluations 2 --jobs 1");
  INFO(c.out << c.err);
  CHECK(c.exit_code == 0);
  CHECK(c.out.find("rows used (split check, hardware dgx-a100-superpod): k22-22b-full") != std::string::npos);
  CHECK(c.out.find("diagnosis only") != std::string::npos);
  CHECK(c.out.find("lines to paste") == std::string::npos);
  // Without --split the same file has no calibrate rows for the platform: exit 2, naming the split.
  const CommandResult none = run_trainsim("calibrate " + file.string() + " --platform dgx-a100-superpod");
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("no calibrate rows for 'dgx-a100-superpod'") != std::string::npos);
  CHECK(run_trainsim("calibrate --platform dgx-a100-superpod --split nope").exit_code == 2);
  fs::remove(file);
}
