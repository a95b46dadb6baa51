// `trainsim validate` and `trainsim calibrate` on measurement files of the user's own: several files as one
// set, and `calibrate --split check`, a diagnosis of what the check rows would want, never a preset value.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {

// One check row in a file of its own: an 8-A100 Korthikanti row (`id`, measured `seconds`), its run
// file by absolute path.
fs::path one_check_row(const std::string& id = "k22-22b-full", double seconds = 1.42) {
  const fs::path file = fs::temp_directory_path() / ("trainsim_" + id + "_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(file) << "description: one check row\nmeasurements:\n"
                      << "  - {id: " << id << ", run: " << (kRoot / "validation/runs" / (id + ".yaml")).string()
                      << ", split: check, hardware: dgx-a100-superpod, metric: iteration_s, value: " << seconds
                      << ", flops_formula: none, source: \"Korthikanti et al. 2022, Table 5\"}\n";
  return file;
}
}  // namespace

TEST_CASE("calibrate --split check fits the check rows but prints no lines to paste", "[cli]") {
  const fs::path file = one_check_row();
  const CommandResult c = run_trainsim("calibrate " + file.string() +
                                       " --platform dgx-a100-superpod --split check --evaluations 2 --jobs 1");
  INFO(c.out << c.err);
  CHECK(c.exit_code == 0);
  CHECK(c.out.find("rows used (split check, hardware dgx-a100-superpod): k22-22b-full") != std::string::npos);
  CHECK(c.out.find("diagnosis only") != std::string::npos);
  CHECK(c.out.find("lines to paste") == std::string::npos);
  // Without --split the same file has no calibrate rows for the platform: exit 2, naming the split.
  const CommandResult none = run_trainsim("calibrate " + file.string() + " --platform dgx-a100-superpod");
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("no calibrate rows for 'dgx-a100-superpod'") != std::string::npos);
  CHECK(none.err.find("valid: none: the file has no calibrate rows at all") != std::string::npos);
  CHECK(none.out.empty());  // refused before the "rows used" line
  CHECK(run_trainsim("calibrate --platform dgx-a100-superpod --split nope").exit_code == 2);
  fs::remove(file);
}

TEST_CASE("validate reads several measurement files as one set", "[cli]") {
  const fs::path full = one_check_row("k22-22b-full", 1.42), present = one_check_row("k22-22b-present", 1.10);
  const fs::path md = fs::temp_directory_path() / ("trainsim_two_files_" + std::to_string(::getpid()) + ".md");
  const CommandResult r =
      run_trainsim("validate " + full.string() + " " + present.string() + " --jobs 1 --markdown " + md.string());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("k22-22b-full") != std::string::npos);
  CHECK(r.out.find("k22-22b-present") != std::string::npos);
  CHECK(r.out.find("check                                  2 rows") != std::string::npos);
  const std::string report = slurp(md.string());
  CHECK(report.find(full.filename().string() + ", " + present.filename().string()) != std::string::npos);
  // The same file twice repeats its id: bad input, exit 2, naming the id.
  const CommandResult twice = run_trainsim("validate " + full.string() + " " + full.string());
  CHECK(twice.exit_code == 2);
  CHECK(twice.err.find("(got 'k22-22b-full')") != std::string::npos);
  for (const auto& f : {full, present, md}) fs::remove(f);
}

TEST_CASE("validate scores rows that share a group as a ranking, on stdout, in Markdown and in CSV", "[cli]") {
  // Two 8-A100 Korthikanti runs of one model that differ in recompute, given as one check group: the
  // full-recompute run measured slower (1.42 s) than the selective one (1.10 s), so a prediction in the
  // same order gives rho = 1 and predicts the measured best.
  const fs::path file = fs::temp_directory_path() / ("trainsim_group_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(file) << "measurements:\n"
                      << "  - {id: k22-22b-full, run: " << (kRoot / "validation/runs/k22-22b-full.yaml").string()
                      << ", group: g22, split: check, hardware: dgx-a100-superpod, metric: iteration_s, value: 1.42,"
                         " peak_memory: 40GiB, source: \"Korthikanti et al. 2022, Table 5\"}\n"
                      << "  - {id: k22-22b-present, run: " << (kRoot / "validation/runs/k22-22b-present.yaml").string()
                      << ", group: g22, split: check, hardware: dgx-a100-superpod, metric: iteration_s, value: 1.10,"
                         " source: \"Korthikanti et al. 2022, Table 5\"}\n";
  const std::string stem = fs::temp_directory_path() / ("trainsim_group_" + std::to_string(::getpid()));
  const CommandResult r = run_trainsim("validate " + file.string() + " --jobs 2 --markdown " + stem + ".md" +
                                       " --ranking-csv " + stem + ".csv");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("ranking group") != std::string::npos);
  CHECK(r.out.find("g22                        check        2     1.00 k22-22b-present") != std::string::npos);
  CHECK(r.out.find("check       1 groups   mean spearman  1.00   best predicted best in 1 of 1") != std::string::npos);
  const std::string md = slurp(stem + ".md");
  CHECK(md.find("## Ranking groups") != std::string::npos);
  CHECK(md.find("| g22 | check | 2 | 1.00 | k22-22b-present | k22-22b-present | yes |") != std::string::npos);
  const std::string csv = slurp(stem + ".csv");
  CHECK(csv.find("group,split,hardware,rows,spearman,") == 0);
  CHECK(csv.find("\ng22,check,dgx-a100-superpod,2,1,k22-22b-present,k22-22b-present,yes,") != std::string::npos);
  // A group of one row is bad input: exit 2, naming the key.
  std::ofstream(file) << "measurements:\n  - {id: k22-22b-full, run: "
                      << (kRoot / "validation/runs/k22-22b-full.yaml").string()
                      << ", group: g22, split: check, hardware: dgx-a100-superpod, metric: iteration_s, value: 1.42,"
                         " source: \"x\"}\n";
  const CommandResult one = run_trainsim("validate " + file.string());
  CHECK(one.exit_code == 2);
  CHECK(one.err.find("measurements.0.group") != std::string::npos);
  for (const auto& f : {file.string(), stem + ".md", stem + ".csv"}) fs::remove(f);
}
