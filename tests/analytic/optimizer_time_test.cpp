// The optimizer step's time (sim/analytic/optimizer_time): offloaded to the host as DeepSpeed's
// ZeRO-Offload runs it, worked by hand; the graph's optimizer task and the formulas' optimizer terms
// both take it.
#include <catch2/catch.hpp>

#include "sim/analytic/iteration_inputs.hpp"
#include "sim/analytic/optimizer_time.hpp"
#include "sim/config/loader.hpp"
#include "sim/graph/builder.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;

namespace {
PlatformSpec host_side() {
  // PCIe 32 GB/s per direction and 51.2 GB/s of host memory, both reached at 0.8: 25.6 and 40.96 GB/s.
  PlatformSpec p;
  p.host_link_bandwidth = 32e9;
  p.host_memory_bandwidth = 51.2e9;
  p.host_efficiency = 0.8;
  return p;
}
}  // namespace

TEST_CASE("an offloaded step: 4 + 2 bytes per parameter over the host link, 48 through host memory",
          "[analytic]") {
  // 1e9 parameters, one micro-batch: fp32 gradients 4e9 B / 25.6e9 B/s = 156.25 ms; unscale, Adam,
  // 16-bit copy and the DMAs' own traffic 48e9 B / 40.96e9 B/s = 1171.875 ms; 16-bit weights back
  // 2e9 B / 25.6e9 B/s = 78.125 ms; no accumulation copies.
  const OffloadedStep step = offloaded_step(1e9, 1, host_side());
  CHECK(step.accumulation == 0);
  CHECK(step.gradients_to_host == Approx(0.15625).epsilon(1e-12));
  CHECK(step.host_adam == Approx(1.171875).epsilon(1e-12));
  CHECK(step.weights_to_device == Approx(0.078125).epsilon(1e-12));
  CHECK(step.total() == Approx(1.40625).epsilon(1e-12));
}

TEST_CASE("gradient accumulation through the host adds 2 bytes each way per micro-step", "[analytic]") {
  // 4 micro-batches: 4 sends of the 16-bit gradient and 3 fetches back, 7 x 2e9 B / 25.6e9 B/s = 546.875 ms.
  const OffloadedStep step = offloaded_step(1e9, 4, host_side());
  CHECK(step.accumulation == Approx(0.546875).epsilon(1e-12));
  CHECK(step.total() == Approx(1.40625 + 0.546875).epsilon(1e-12));
}

TEST_CASE("with the optimizer offloaded, graph and formulas charge the offloaded step of the device's shard",
          "[analytic][graph]") {
  // Llama 3 8B on 32 H100 (tp 1, pp 1, dp 32, ZeRO-3, 2 micro-batches): the one stage holds every
  // parameter and its optimizer shard is 1/32 of them; bf16, so only the gradient norm stays on the device.
  const RunSpec run = load_run(kRoot / "workloads/llama3-8b-fsdp-h100.yaml", {"strategy.offload=optimizer"});
  REQUIRE(run.microbatches() == 2);
  const double shard_params = static_cast<double>(count_params(run.model).total()) / 32;
  const double host = offloaded_step(shard_params, 2, run.platform).total();
  const StageInputs in = extract_iteration_inputs(run).stages[0];
  CHECK(in.offloaded_step == Approx(host).epsilon(1e-12));
  CHECK(in.optimizer > 0);            // the norm on the device
  CHECK(in.optimizer < host / 100);   // a pass over the shard at HBM speed
  const RunGraph g = build_run_graph(run);
  double graph_seconds = -1;
  for (size_t t = 0; t < g.stages[0].size(); ++t) {
    const Task& task = g.stages[0].task(static_cast<TaskId>(t));
    if (g.stages[0].label_text(task.label) == "optimizer.step") graph_seconds = task.duration;
  }
  CHECK(graph_seconds == Approx(in.optimizer + host).epsilon(1e-12));
  // Without offload nothing waits for the host.
  const RunSpec on_device = load_run(kRoot / "workloads/llama3-8b-fsdp-h100.yaml", {});
  CHECK(extract_iteration_inputs(on_device).stages[0].offloaded_step == 0);
}
