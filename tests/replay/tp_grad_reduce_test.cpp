// strategy.overlap.tp_grad_reduce off (Megatron-LM of 2021): every TP all-reduce is exposed whole, the
// backward's too, which otherwise run beside the weight-gradient GEMMs issued after them.
#include <catch2/catch.hpp>
#include <string>

#include "tests/support/json_number.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/run_command.hpp"

using namespace trainsim::test;

namespace {

// exposed_tp of the default workload cut to `layers` layers on tp 2, no interference, no SP.
double exposed_tp(int layers, bool beside) {
  const std::string json = scratch("tp_grad_reduce_" + std::to_string(layers) + (beside ? "b" : "s") + ".json");
  const CommandResult r = run_trainsim(
      "simulate " + kDefault + " --set model.layers=" + std::to_string(layers) +
      " --set global_batch=4 --set platform.accelerator.comm_interference=0 --set strategy.sequence_parallel=false"
      " --set devices=2 --set strategy.tp=2 --set strategy.pp=1 --set strategy.dp=1"
      " --set strategy.overlap.tp_grad_reduce=" + (beside ? "true" : "false") + " --json " + json);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return number_after(slurp(json), "exposed_tp");
}

}  // namespace

// All TP all-reduces move the same b x s x h tensor. A layer has four: after attention's and the
// MLP's row-parallel GEMMs (forward) and on the input gradients of the QKV and first MLP GEMMs
// (backward); the model adds two, the vocabulary-parallel embedding's (forward) and the logits
// GEMM's input gradient (backward). Serial, one layer exposes 6 all-reduces and each further layer
// 4 more, so exposed(1) / (exposed(2) - exposed(1)) = 6 / 4.
TEST_CASE("without tp_grad_reduce every TP all-reduce is exposed whole", "[replay][tp]") {
  const double one = exposed_tp(1, false), two = exposed_tp(2, false);
  REQUIRE(two > one);
  CHECK(one / (two - one) == Approx(6.0 / 4.0).epsilon(1e-6));
  // Beside the weight gradients, the backward's all-reduces hide (partly) behind them.
  CHECK(exposed_tp(1, true) < one - (two - one) / 4 * 0.5);
}
