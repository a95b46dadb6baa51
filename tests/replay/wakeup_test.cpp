// How often a device's actor wakes (Timeline::wakeups): the replay's cost follows it, and each
// wake-up it skips must be one at which it would have done nothing (kernel_chain.hpp). Counted
// on one tp 8 group, one stage, one micro-batch: every device runs the same layers in step, so
// one more layer adds the same wake-ups to each of the 8 devices.
#include <catch2/catch.hpp>
#include <sstream>

#include "sim/config/loader.hpp"
#include "sim/core/child_process.hpp"
#include "sim/graph/builder.hpp"
#include "sim/replay/engine.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;

namespace {

constexpr int kTpDevices = 8;

// Llama 3 70B cut to `layers` layers on one DGX H100 node: tp 8 with sequence parallelism and TP
// communication overlap, every TP collective an NVLS exchange timed in advance (switch_shortcut.hpp).
std::pair<double, uint64_t> replay_layers(int layers) {
  std::istringstream in(call_in_child([&] {
    const RunSpec run = load_run(kRoot / "workloads/llama3-70b-h100.yaml",
                                 {"devices=8", "strategy.pp=1", "strategy.dp=1", "global_batch=1",
                                  "strategy.virtual_stages=1", "strategy.schedule=1f1b",
                                  "model.layers=" + std::to_string(layers)});
    const Timeline t = replay(run, build_run_graph(run), Mesh(run.strategy), ReplayOptions{});
    std::ostringstream s;
    s.precision(17);
    s << t.iteration_time << ' ' << t.wakeups;
    return s.str();
  }));
  std::pair<double, uint64_t> out;
  in >> out.first >> out.second;
  return out;
}

}  // namespace

TEST_CASE("a device wakes once per TP collective it begins, and once more where a kernel ends before the next collective can begin",
          "[replay][wakeups]") {
  // The wake-ups one layer adds to a device, worked from the layer's tasks (the trace of this run
  // shows them). Each TP collective begins with a rendezvous of the 8 devices, so the device
  // wakes to begin it; between those wake-ups the kernels run on as one chain, waiting without a
  // wake for the exchanges in progress, whose ends are known.
  //  forward, 4: the all-gather before qkv_proj, the reduce-scatter beside out_proj, the
  //    all-gather before mlp_fc1, the reduce-scatter beside mlp_fc2;
  //  backward, 8: the all-gather beside mlp_fc2.dgrad; the regather of fc1's input beside
  //    mlp_fc1.dgrad; the regather's end, before the GEMM's (nothing can begin: the reduce-scatter
  //    of the GEMM's output waits for the GEMM); mlp_fc1.dgrad's end, where that reduce-scatter
  //    begins beside fc1's weight gradients; the all-gather beside out_proj.dgrad; the regather
  //    beside qkv_proj.dgrad; the GEMM's end, before the regather's (its reduce-scatter is ready but
  //    the stream is busy); the regather's end, where the reduce-scatter begins.
  constexpr uint64_t kPerLayer = 4 + 8;
  const auto two = replay_layers(2);
  const auto three = replay_layers(3);
  REQUIRE(three.first > two.first);
  CHECK(three.second - two.second == kPerLayer * kTpDevices);
}
