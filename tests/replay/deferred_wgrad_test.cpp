// strategy.defer_output_wgrad on a replayed two-stage pipeline: the last stage's output-layer weight
// gradients leave its steady state for the flush, where the first stage is still draining; while
// they fit there, the iteration is shorter by exactly their time.
#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "tests/support/json_number.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/run_command.hpp"

using namespace trainsim::test;

namespace {

const std::string kRun = "simulate " + kDefault +
                         " --set model.layers=4 --set global_batch=4 --set platform.accelerator.comm_interference=0"
                         " --set strategy.sequence_parallel=false --set devices=2 --set strategy.tp=1"
                         " --set strategy.pp=2 --set strategy.dp=1";

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

namespace {

// Formula and replay of the default workload on two stages (tp 1 unless `sets` says otherwise).
std::pair<double, double> formula_and_replay(const std::string& sets) {
  const CommandResult r = run_trainsim(
      "estimate " + kDefault + " --json --theta defaults --set platform.accelerator.comm_interference=0"
      " --set strategy.sequence_parallel=false --set strategy.pp=2 --set strategy.dp=1 --set strategy.tp=1 " + sets);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return {number_after(r.out, "formula_iteration_time_s"), number_after(r.out, "replay_iteration_time_s")};
}

}  // namespace

// One layer per stage, 16 micro-batches: the last stage (with the output layer) is the slower, so
// once its deferred GEMMs outlast the first stage's last backward it ends the iteration, and its
// total work does not depend on how many were deferred: deferring 4, 8 or 16 gives the same time.
TEST_CASE("deferred output weight gradients save at most the first stage's drain", "[replay][pipeline]") {
  const std::string sets = "--set model.layers=2 --set global_batch=16 --set devices=2 --set strategy.defer_output_wgrad=";
  const auto none = formula_and_replay(sets + "0"), four = formula_and_replay(sets + "4");
  const auto eight = formula_and_replay(sets + "8"), all = formula_and_replay(sets + "16");
  CHECK(four.second < none.second);
  CHECK(eight.second == Approx(four.second).epsilon(1e-12));
  CHECK(all.second == Approx(four.second).epsilon(1e-12));
  // The formulas follow: the flush's excess over the drain ends the last stage.
  for (const auto& [formula, replay] : {none, four, eight, all}) CHECK(formula == Approx(replay).epsilon(1e-3));
}

// With tp 2 the output layer's input-gradient all-reduce no longer runs beside a weight-gradient GEMM
// in the deferred micro-batches: the next kernel waits for it whole, in the formulas as in the replay.
TEST_CASE("deferred micro-batches expose the output layer's backward TP reduction", "[replay][pipeline][tp]") {
  const auto deferred = formula_and_replay("--set model.layers=4 --set global_batch=4 --set devices=4 "
                                           "--set strategy.tp=2 --set strategy.defer_output_wgrad=4");
  CHECK(deferred.first == Approx(deferred.second).epsilon(1e-5));
}
