// The switch shortcut (sim/replay/switch_shortcut.hpp) is exact: where it times exchanges with
// a switch without flows, the replay's times are the full replay's (every exchange a SimGrid
// flow) up to the rounding of event dates; where another transfer could share a port, it
// declines.
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "sim/config/loader.hpp"
#include "sim/core/child_process.hpp"
#include "sim/graph/builder.hpp"
#include "sim/replay/compiled_stage.hpp"
#include "sim/replay/engine.hpp"
#include "sim/replay/switch_shortcut.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;
namespace fs = std::filesystem;

namespace {


struct Times {
  double iteration = 0;
  std::vector<double> device_times;  // every device's time per category, device by device
};

Times replay_times(const std::string& run_file, const std::vector<std::string>& sets, CollectiveMode mode,
                   bool shortcut) {
  std::istringstream in(call_in_child([&] {
    const RunSpec run = load_run(kRoot / run_file, sets);
    ReplayOptions o;
    o.collectives = mode;
    o.analytic_switch = shortcut;
    const Timeline t = replay(run, build_run_graph(run), Mesh(run.strategy), o);
    std::ostringstream s;
    s.precision(17);
    s << t.iteration_time;
    for (const DeviceTimeline& d : t.devices)
      for (double v : d.time) s << ' ' << v;
    return s.str();
  }));
  Times out;
  in >> out.iteration;
  for (double v; in >> v;) out.device_times.push_back(v);
  return out;
}

std::vector<uint8_t> private_tiers(const std::string& run_file, const std::vector<std::string>& sets,
                                   ReplayOptions o = {}) {
  const RunSpec run = load_run(kRoot / run_file, sets);
  return shortcut_tiers(run, build_run_graph(run), Mesh(run.strategy), o).switch_exchanges;
}

std::vector<uint8_t> pair_tiers(const std::string& run_file, const std::vector<std::string>& sets,
                                ReplayOptions o = {}) {
  const RunSpec run = load_run(kRoot / run_file, sets);
  return shortcut_tiers(run, build_run_graph(run), Mesh(run.strategy), o).pairs;
}

// Llama 3 70B cut to 4 layers on 2 DGX H100 nodes: tp 8 fills each node (NVLS on the NVLink
// tier), the 2 pipeline stages talk over InfiniBand, no data parallelism.
const std::vector<std::string> kTpNodes = {"devices=16",     "strategy.pp=2",  "strategy.dp=1",
                                           "global_batch=4", "model.layers=4", "strategy.virtual_stages=1",
                                           "strategy.schedule=1f1b"};

void check_same(const Times& flows, const Times& timed) {
  // Event dates are sums in another order (latency + bytes / bandwidth against SimGrid's two
  // phases of a flow): the same up to rounding, far below a nanosecond.
  CHECK(timed.iteration == Approx(flows.iteration).epsilon(1e-12));
  REQUIRE(timed.device_times.size() == flows.device_times.size());
  for (size_t i = 0; i < flows.device_times.size(); ++i) CHECK(timed.device_times[i] == Approx(flows.device_times[i]).margin(1e-9));
}

}  // namespace

TEST_CASE("timing exchanges with a switch nobody else uses gives the full replay's times", "[replay][shortcut]") {
  REQUIRE(private_tiers("workloads/llama3-70b-h100.yaml", kTpNodes) == std::vector<uint8_t>{1, 0});
  for (CollectiveMode mode : {CollectiveMode::kBulk, CollectiveMode::kStep}) {
    INFO((mode == CollectiveMode::kBulk ? "bulk" : "step"));
    check_same(replay_times("workloads/llama3-70b-h100.yaml", kTpNodes, mode, false),
               replay_times("workloads/llama3-70b-h100.yaml", kTpNodes, mode, true));
  }
}

TEST_CASE("timing switch exchanges in an NVL72 rack gives the full replay's times", "[replay][shortcut]") {
  // One tp 8 group in a GB200 NVL72 rack (NVLink 5 switch with NVLS), layers cut to 4.
  const std::vector<std::string> tp8 = {"devices=8", "strategy.dp=1", "global_batch=2", "model.layers=4"};
  REQUIRE(private_tiers("workloads/llama3-70b-gb200-nvl72.yaml", tp8) == std::vector<uint8_t>{1, 0});
  check_same(replay_times("workloads/llama3-70b-gb200-nvl72.yaml", tp8, CollectiveMode::kBulk, false),
             replay_times("workloads/llama3-70b-gb200-nvl72.yaml", tp8, CollectiveMode::kBulk, true));
}

TEST_CASE("chaining kernels through switch exchanges that alone wait on them gives the full replay's times",
          "[replay][shortcut]") {
  // Without TP overlap the compute task after each TP collective waits on it: the replay runs
  // kernel, exchange and kernel as one chain (device_loop.cpp) where the full replay wakes at
  // each end. With overlap, GEMMs run during the exchanges and the exchanges' ends pass without
  // a wake (their interference ends at known dates): the first test case.
  std::vector<std::string> blocking = kTpNodes;
  blocking.push_back("strategy.overlap.tp_comm=false");
  const RunSpec run = load_run(kRoot / "workloads/llama3-70b-h100.yaml", blocking);
  const RunGraph graph = build_run_graph(run);
  size_t chained = 0;
  for (const StageGraph& stage : graph.stages) {
    const CompiledStage cs = compile_stage(stage);
    for (TaskId t = 0; t < stage.size(); ++t) chained += cs.compute_blocking[t];
  }
  CHECK(chained > 0);
  check_same(replay_times("workloads/llama3-70b-h100.yaml", blocking, CollectiveMode::kBulk, false),
             replay_times("workloads/llama3-70b-h100.yaml", blocking, CollectiveMode::kBulk, true));
}

TEST_CASE("the switch shortcut declines where another transfer can share a member's port", "[replay][shortcut]") {
  // default.yaml: tp 2 x dp 4 fill a node, so the DP ring runs over the same NVLink ports.
  CHECK(private_tiers("workloads/default.yaml", {}) == std::vector<uint8_t>{0, 0});
  // Pipeline transfers inside a node (tp 4 x pp 2 per node).
  CHECK(private_tiers("workloads/llama3-70b-h100.yaml", {"devices=32", "strategy.tp=4", "strategy.pp=8",
                                                         "strategy.dp=1", "global_batch=8",
                                                         "strategy.virtual_stages=1", "strategy.schedule=1f1b"}) ==
        std::vector<uint8_t>{0, 0});
  // Per-link statistics need the bytes on the links; a folded replay mirrors flows.
  ReplayOptions links;
  links.link_stats = true;
  CHECK(private_tiers("workloads/llama3-70b-h100.yaml", kTpNodes, links) == std::vector<uint8_t>{0, 0});
  ReplayOptions folded;
  folded.fold_tensor_parallel = true;
  CHECK(private_tiers("workloads/llama3-70b-h100.yaml", kTpNodes, folded) == std::vector<uint8_t>{0, 0});
  ReplayOptions off;
  off.analytic_switch = false;
  CHECK(private_tiers("workloads/llama3-70b-h100.yaml", kTpNodes, off) == std::vector<uint8_t>{0, 0});
}

TEST_CASE("timing ring collectives on a crossbar nobody else uses gives the full replay's times", "[replay][shortcut]") {
  // GPT-3 175B cut to 6 layers on 2 DGX A100 nodes: tp 8 rings fill each node's NVSwitch (no
  // in-switch reduction), the 2 pipeline stages (interleaved, 3 chunks each) talk over InfiniBand.
  // Each member sends one flow to its ring successor and receives one from its predecessor, alone
  // on its NVSwitch ports: timed once every member has begun (pair_shortcut.hpp).
  const std::vector<std::string> tp_nodes = {"devices=16", "strategy.pp=2", "strategy.dp=1", "global_batch=4",
                                             "model.layers=6"};
  REQUIRE(pair_tiers("workloads/gpt3-175b-a100.yaml", tp_nodes) == std::vector<uint8_t>{1, 0});
  check_same(replay_times("workloads/gpt3-175b-a100.yaml", tp_nodes, CollectiveMode::kBulk, false),
             replay_times("workloads/gpt3-175b-a100.yaml", tp_nodes, CollectiveMode::kBulk, true));
}

TEST_CASE("the pair shortcut declines where a pipeline transfer crosses the crossbar or in step mode",
          "[replay][shortcut]") {
  // pp 2 inside one node: the pipeline's transfers cross the NVSwitch ports the rings use.
  const std::vector<std::string> one_node = {"devices=8", "strategy.tp=4", "strategy.pp=2", "strategy.dp=1",
                                             "global_batch=4", "model.layers=6"};
  CHECK(pair_tiers("workloads/gpt3-175b-a100.yaml", one_node) == std::vector<uint8_t>{0, 0});
  ReplayOptions step;
  step.collectives = CollectiveMode::kStep;
  const std::vector<std::string> tp_nodes = {"devices=16", "strategy.pp=2", "strategy.dp=1", "global_batch=4",
                                             "model.layers=6"};
  CHECK(pair_tiers("workloads/gpt3-175b-a100.yaml", tp_nodes, step) == std::vector<uint8_t>{0, 0});
}
