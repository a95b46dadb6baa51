// strategy.defer_output_wgrad on a replayed two-stage pipeline: the last stage's output-layer weight
// gradients leave its steady state for the flush, where the first stage is still draining; while
// they fit there, the iteration is shorter by exactly their time.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/json_number.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/run_command.hpp"

using namespace trainsim::test;

namespace {

const std::string kRun = "simulate " + kDefault +
                         " --set model.layers=4 --set global_batch=4 --set platform.accelerator.comm_interference=0"
                         " --set strategy.sequence_parallel=false --set devices=2 --set strategy.tp=1"
                         " --set strategy.pp=2 --set strategy.dp=1";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

double iteration_time(int deferred) {
  const std::string json = scratch("deferred_wgrad_" + std::to_string(deferred) + ".json");
  const CommandResult r = run_trainsim(kRun + " --set strategy.defer_output_wgrad=" + std::to_string(deferred) +
                                       " --json " + json);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return number_after(slurp(json), "iteration_time_s");
}

// Seconds of one logits.wgrad task on the last stage (device 1), from the trace.
double output_wgrad_seconds() {
  const std::string trace = scratch("deferred_wgrad_trace.json");
  const CommandResult r = run_trainsim(kRun + " --trace " + trace + " --trace-devices 1");
  REQUIRE(r.exit_code == 0);
  const std::string text = slurp(trace);
  const size_t at = text.find("\"logits.wgrad\"");
  REQUIRE(at != std::string::npos);
  const size_t dur = text.find("\"dur\":", at);
  REQUIRE(dur != std::string::npos);
  return std::stod(text.substr(dur + 6)) * 1e-6;  // trace durations are microseconds
}

}  // namespace

TEST_CASE("deferring N output weight gradients into the flush saves N of them", "[replay][pipeline]") {
  const double w = output_wgrad_seconds(), none = iteration_time(0);
  REQUIRE(w > 0);
  CHECK(none - iteration_time(2) == Approx(2 * w).epsilon(1e-5));
  CHECK(none - iteration_time(4) == Approx(4 * w).epsilon(1e-5));
}
