// `trainsim simulate` end to end: results, JSON and trace files a program can read.
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/json_check.hpp"
#include "tests/support/run_command.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {
const fs::path kRoot = fs::path(TRAINSIM_TEST_DIR).parent_path();
const std::string kDefault = (kRoot / "workloads/default.yaml").string();
}  // namespace

TEST_CASE("simulate writes valid JSON with the documented fields and a valid Chrome trace", "[cli]") {
  const std::string json = scratch("trainsim_cli_result.json"), trace = scratch("trainsim_cli_trace.json");
  const CommandResult r = run_trainsim("simulate " + kDefault + " --json " + json + " --trace " + trace +
                                   " --trace-devices 0-3 --links " + scratch("trainsim_cli_links.csv"));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string result = slurp(json);
  CHECK(JsonCheck::valid(result));
  for (const char* field : {"\"iteration_time_s\"", "\"tokens_per_s\"", "\"tflops_per_device\"", "\"mfu\"",
                            "\"peak_memory_bytes\"", "\"memory_capacity_bytes\"", "\"breakdown\"", "\"devices\""})
    CHECK(result.find(field) != std::string::npos);
  const std::string events = slurp(trace);
  CHECK(JsonCheck::valid(events));
  CHECK(events.find("\"traceEvents\"") != std::string::npos);
  CHECK(events.find("qkv") != std::string::npos);  // kernels are named
  CHECK(slurp(scratch("trainsim_cli_links.csv")).rfind("link,tier,bandwidth_Bps,bytes,busy_fraction\n", 0) == 0);
}

TEST_CASE("the JSON checker used above rejects malformed JSON", "[cli]") {
  CHECK(JsonCheck::valid("{\"a\": [1, 2.5e3, true, null, \"x\"]}"));
  CHECK_FALSE(JsonCheck::valid("{\"a\": [1, 2,]}"));
  CHECK_FALSE(JsonCheck::valid("{a: 1}"));
  CHECK_FALSE(JsonCheck::valid("{\"a\": 1} trailing"));
}

TEST_CASE("the same run gives byte-identical JSON twice", "[cli]") {
  REQUIRE(run_trainsim("simulate " + kDefault + " --json " + scratch("trainsim_det1.json")).exit_code == 0);
  REQUIRE(run_trainsim("simulate " + kDefault + " --json " + scratch("trainsim_det2.json")).exit_code == 0);
  CHECK(slurp(scratch("trainsim_det1.json")) == slurp(scratch("trainsim_det2.json")));
}

TEST_CASE("a what-if override changes the result in the expected direction", "[cli]") {
  // Halving every accelerator's peak FLOP/s must make the iteration slower.
  REQUIRE(run_trainsim("simulate " + kDefault + " --json " + scratch("trainsim_wi1.json")).exit_code == 0);
  REQUIRE(run_trainsim("simulate " + kDefault + " --json " + scratch("trainsim_wi2.json") + " --set platform.accelerator.peak_flops.bf16=494TFLOPS")
              .exit_code == 0);
  auto time_of = [](const std::string& text) {
    const size_t at = text.find("\"iteration_time_s\": ");
    return std::stod(text.substr(at + 20));
  };
  CHECK(time_of(slurp(scratch("trainsim_wi2.json"))) > 1.3 * time_of(slurp(scratch("trainsim_wi1.json"))));
}

TEST_CASE("simulate reports progress on stderr only when asked, ending with every task done", "[cli]") {
  // stderr is a file here, not a terminal: silent by default. With --progress the last line
  // counts the tasks the replay ran (tasks finished) against the tasks its graphs hold (graph
  // sizes), and both must equal the task count of the summary.
  const CommandResult quiet = run_trainsim("simulate " + kDefault);
  REQUIRE(quiet.exit_code == 0);
  // No progress line (stderr itself may hold AddressSanitizer's own warning about SimGrid's
  // context switching in the sanitizer build, which is not trainsim output).
  CHECK(quiet.err.find("replay:") == std::string::npos);
  const CommandResult loud = run_trainsim("simulate " + kDefault + " --fold off --progress");
  REQUIRE(loud.exit_code == 0);
  const size_t at = loud.out.find(" tasks, ");
  REQUIRE(at != std::string::npos);
  const std::string tasks = loud.out.substr(loud.out.rfind(' ', at - 1) + 1, at - loud.out.rfind(' ', at - 1) - 1);
  CHECK_THAT(loud.err, Catch::Contains(tasks + " of " + tasks + " tasks (100.0%)"));
}

#if !defined(__SANITIZE_ADDRESS__)
TEST_CASE("simulate runs every example run in workloads/", "[cli][slow]") {
  for (const auto& entry : fs::directory_iterator(kRoot / "workloads")) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path());
    const CommandResult r = run_trainsim("simulate " + entry.path().string());
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("iteration time") != std::string::npos);
  }
}
#endif
