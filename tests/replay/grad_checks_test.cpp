// strategy.grad_nan_check and grad_scale_kernel on a replayed run. With the overlapped reduction the
// per-bucket kernels sit on the compute stream of the last backward, so the iteration grows by exactly
// their time; in a pipeline by the kernels of every stage, since each stage's run before its last
// gradient goes back to the stage before it (the drain). Without the overlap they run after each
// stage's backward, each bucket's after the previous bucket's reduction (a synchronous collective):
// the iteration grows by the kernels of the stage that ends last.
#include <catch2/catch.hpp>

#include <string>

#include "tests/support/json_number.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/run_command.hpp"

using namespace trainsim::test;

namespace {

// The default workload cut to 4 layers on `pp` stages and dp 2, its NVLink made so fast that the
// reductions take microseconds: the kernels are then the only change (to 1e-3 of it: the reductions
// that wait for them without overlap still take their microseconds).
std::string run_of(int pp, bool checks, bool overlap) {
  const std::string on = checks ? "true" : "false";
  return "simulate " + kDefault + " --set model.layers=4 --set global_batch=8" +
         " --set platform.accelerator.comm_interference=0 --set strategy.sequence_parallel=false" +
         " --set platform.tiers.0.bandwidth=100000GBps --set platform.tiers.0.latency=0.01us" +
         " --set devices=" + std::to_string(2 * pp) + " --set strategy.tp=1 --set strategy.pp=" + std::to_string(pp) +
         " --set strategy.dp=2 --set strategy.overlap.dp_grad_reduce=" + (overlap ? "true" : "false") +
         " --set strategy.grad_nan_check=" + on + " --set strategy.grad_scale_kernel=" + on;
}

double iteration_time(int pp, bool checks, bool overlap) {
  const std::string json =
      scratch("grad_checks_" + std::to_string(pp) + (checks ? "c" : "n") + (overlap ? "o" : "s") + ".json");
  const CommandResult r = run_trainsim(run_of(pp, checks, overlap) + " --json " + json);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return number_after(slurp(json), "iteration_time_s");
}

// Seconds of the per-bucket kernels in the traces of `devices` (Megatron's rank order puts dp fastest
// after tp: devices 0 and 2 hold stages 0 and 1 with dp 2).
double check_seconds(int pp, const std::string& devices) {
  const std::string trace = scratch("grad_checks_trace_" + std::to_string(pp) + devices + ".json");
  const CommandResult r = run_trainsim(run_of(pp, true, true) + " --trace " + trace + " --trace-devices " + devices);
  REQUIRE(r.exit_code == 0);
  const std::string text = slurp(trace);
  double total = 0;
  for (const char* label : {"\"dp.grad_norm\"", "\"dp.grad_scale\""})
    for (size_t at = text.find(label); at != std::string::npos; at = text.find(label, at + 1)) {
      const size_t dur = text.find("\"dur\":", at);
      REQUIRE(dur != std::string::npos);
      total += std::stod(text.substr(dur + 6)) * 1e-6;  // trace durations are microseconds
    }
  return total;
}

}  // namespace

TEST_CASE("per-bucket gradient kernels lengthen the iteration by their own time", "[replay]") {
  const double kernels = check_seconds(1, "0");
  REQUIRE(kernels > 0);
  CHECK(iteration_time(1, true, true) - iteration_time(1, false, true) == Approx(kernels).epsilon(1e-3));
  CHECK(iteration_time(1, true, false) - iteration_time(1, false, false) == Approx(kernels).epsilon(1e-3));
}

TEST_CASE("in a pipeline the per-bucket kernels of every stage add up along the drain", "[replay][pipeline]") {
  const double both = check_seconds(2, "0,2"), first = check_seconds(2, "0");
  REQUIRE(first > 0);
  REQUIRE(both > first);
  CHECK(iteration_time(2, true, true) - iteration_time(2, false, true) == Approx(both).epsilon(1e-3));
  // Not overlapped: after the backward, where stage 0 (the last to end in 1F1B) adds its own alone.
  CHECK(iteration_time(2, true, false) - iteration_time(2, false, false) == Approx(first).epsilon(1e-3));
}
