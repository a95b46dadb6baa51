// The optimizer step's time (sim/analytic/optimizer_time): on the device, and offloaded to the host
// as ZeRO-Offload runs it, worked by hand; the graph's optimizer task and the formulas' optimizer term
// both take it.
#include <catch2/catch.hpp>

#include "sim/analytic/iteration_inputs.hpp"
#include "sim/analytic/optimizer_time.hpp"
#include "sim/config/loader.hpp"
#include "sim/graph/builder.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;

TEST_CASE("an offloaded step moves 2 + 2 bytes per parameter over the host link and 34 through host memory",
          "[analytic]") {
  // 1e9 parameters; PCIe 32 GB/s per direction and 51.2 GB/s of host memory, both at 0.8:
  // gradients 2e9 B / 25.6e9 B/s = 78.125 ms, Adam and the norm 34e9 B / 40.96e9 B/s = 830.078125 ms,
  // weights back 78.125 ms.
  PlatformSpec p;
  p.host_link_bandwidth = 32e9;
  p.host_memory_bandwidth = 51.2e9;
  p.host_efficiency = 0.8;
  const OffloadedStep step = offloaded_step(1e9, p);
  CHECK(step.gradients_to_host == Approx(0.078125).epsilon(1e-12));
  CHECK(step.host_adam == Approx(0.830078125).epsilon(1e-12));
  CHECK(step.weights_to_device == Approx(0.078125).epsilon(1e-12));
  CHECK(step.total() == Approx(0.986328125).epsilon(1e-12));
}

TEST_CASE("with the optimizer offloaded, graph and formulas charge the offloaded step of the device's shard",
          "[analytic][graph]") {
  // Llama 3 8B on 32 H100 (tp 1, pp 1, dp 32, ZeRO-3): the one stage holds every parameter and its
  // optimizer shard is 1/32 of them; bf16, so no weight re-quantization stays on the device.
  const RunSpec run = load_run(kRoot / "workloads/llama3-8b-fsdp-h100.yaml", {"strategy.offload=optimizer"});
  const RunSpec on_device = load_run(kRoot / "workloads/llama3-8b-fsdp-h100.yaml", {});
  const double shard_params = static_cast<double>(count_params(run.model).total()) / 32;
  const double expected = offloaded_step(shard_params, run.platform).total();
  CHECK(extract_iteration_inputs(run).stages[0].optimizer == Approx(expected).epsilon(1e-12));
  const RunGraph g = build_run_graph(run);
  double graph_seconds = -1;
  for (size_t t = 0; t < g.stages[0].size(); ++t) {
    const Task& task = g.stages[0].task(static_cast<TaskId>(t));
    if (g.stages[0].label_text(task.label) == "optimizer.step") graph_seconds = task.duration;
  }
  CHECK(graph_seconds == Approx(expected).epsilon(1e-12));
  // The device's own step is 34 bytes per parameter at HBM speed: far shorter than the host's.
  CHECK(extract_iteration_inputs(on_device).stages[0].optimizer < expected / 10);
}
