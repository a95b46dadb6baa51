// Input extraction of the iteration formulas (sim/analytic/iteration_inputs) on the bundled runs:
// the peak memory evaluated from the extracted numbers and the schedule's closed-form peak equals
// the memory model's own per-stage total, and the passes add up to what the kernels cost.
#include <catch2/catch.hpp>
#include <filesystem>

#include "sim/analytic/device_memory.hpp"
#include "sim/analytic/iteration_inputs.hpp"
#include "sim/config/loader.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;
namespace fs = std::filesystem;

namespace {
}  // namespace

// Memory per stage = static part + peak units x activations per unit; the closed-form peak is the
// count of the expanded steps (tests/graph/schedule_shape_test), so the totals must agree exactly.
TEST_CASE("peak memory from the formulas' inputs equals the memory model per stage", "[analytic][iteration]") {
  for (const char* run_file : {"default.yaml", "llama2-13b-zbh1-h100.yaml", "llama2-7b-gpipe-a100.yaml",
                               "mixtral-8x7b-h100.yaml", "llama3-70b-h100.yaml", "llama3-8b-fsdp-h100.yaml"}) {
    INFO(run_file);
    const RunSpec run = load_run(kRoot / "workloads" / run_file, {});
    const IterationInputs in = extract_iteration_inputs(run);
    const std::vector<DeviceMemory> memory = stage_memory(run);
    REQUIRE(in.stages.size() == memory.size());
    for (int s = 0; s < run.strategy.pp; ++s)
      CHECK(stage_peak_memory(in, s) == Approx(memory[static_cast<size_t>(s)].total()).epsilon(1e-12));
  }
}

// One stage without communication: extraction reports no exposed or hidden communication, and one
// hop, bucket or gather only where the strategy has them.
TEST_CASE("a single device has compute and an optimizer step but no communication", "[analytic][iteration]") {
  const RunSpec run = load_run(kRoot / "workloads/default.yaml",
                               {"devices=1", "strategy.tp=1", "strategy.pp=1", "strategy.dp=1",
                                "strategy.sequence_parallel=false", "global_batch=4", "model.layers=2"});
  const IterationInputs in = extract_iteration_inputs(run);
  REQUIRE(in.stages.size() == 1u);
  const StageInputs& s = in.stages[0];
  CHECK(s.forward > 0);
  CHECK(s.backward_input > 0);
  CHECK(s.weight_grad > 0);
  CHECK(s.optimizer > 0);
  CHECK(s.tp_exposed + s.tp_hidden + s.cp_exposed + s.ep_exposed + s.zero3_exposed + s.pp_hop + s.dp_reduce +
            s.param_gather == 0);
}
