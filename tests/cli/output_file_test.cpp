// Output files are complete or absent, and a failed write says so (issue 18, defect 7: --json,
// --trace and --dot to a full disk exited 0).
#include <catch2/catch.hpp>
#include <filesystem>

#include "sim/cli/output_file.hpp"
#include "sim/core/error.hpp"
#include "tests/support/run_command.hpp"

using namespace trainsim;
using namespace trainsim::test;
namespace fs = std::filesystem;

TEST_CASE("a write that fails part-way leaves neither the file nor its temporary", "[cli]") {
  const fs::path path = fs::temp_directory_path() / "trainsim_output_file_test.json";
  fs::remove(path);
  // The stream fails after some bytes went out, as a full disk fails a write.
  auto failing = [](std::ostream& out) {
    out << "{\"half\": ";
    out.setstate(std::ios::badbit);
  };
  CHECK_THROWS_AS(write_output_file(path.string(), "--json", failing), WriteError);
  CHECK_FALSE(fs::exists(path));
  CHECK_FALSE(fs::exists(path.string() + ".partial"));
  write_output_file(path.string(), "--json", [](std::ostream& out) { out << "{}\n"; });
  CHECK(slurp(path.string()) == "{}\n");
  fs::remove(path);
}

TEST_CASE("simulate exits 1 naming the path and the system's reason when an output cannot be written", "[cli]") {
  const std::string run = std::string(TRAINSIM_DATA_DIR) + "/workloads/default.yaml";
  const CommandResult full = run_trainsim("simulate " + run + " --json /dev/full");
  CHECK(full.exit_code == 1);
  CHECK_THAT(full.err, Catch::Contains("--json: cannot write '/dev/full': No space left on device"));
  const CommandResult missing = run_trainsim("simulate " + run + " --trace /nonexistent-dir/trace.json");
  CHECK(missing.exit_code == 1);
  CHECK_THAT(missing.err, Catch::Contains("cannot write '/nonexistent-dir/trace.json': No such file or directory"));
}
