// The fast replay modes agree with the exact ones on real runs (issue 4: within 1%).
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "sim/config/loader.hpp"
#include "sim/core/child_process.hpp"
#include "sim/graph/builder.hpp"
#include "sim/replay/engine.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;
namespace fs = std::filesystem;

namespace {


double iteration(const std::string& run_file, const std::vector<std::string>& sets, CollectiveMode mode, bool fold,
                 bool fold_tp = false) {
  return std::stod(call_in_child([&] {
    const RunSpec run = load_run(kRoot / run_file, sets);
    ReplayOptions o;
    o.collectives = mode;
    o.fold_data_parallel = fold;
    o.fold_tensor_parallel = fold_tp;
    std::ostringstream s;
    s.precision(17);
    s << replay(run, build_run_graph(run), Mesh(run.strategy), o).iteration_time;
    return s.str();
  }));
}

}  // namespace

TEST_CASE("bulk collectives agree with step-by-step collectives within 1%", "[replay]") {
  // The default run: TP all-gather/reduce-scatter in NVLink islands, DP reduce-scatter across nodes.
  const double step = iteration("workloads/default.yaml", {}, CollectiveMode::kStep, false);
  const double bulk = iteration("workloads/default.yaml", {}, CollectiveMode::kBulk, false);
  CHECK(bulk == Approx(step).epsilon(0.01));
}

TEST_CASE("folding data-parallel replicas agrees with the full replay within 1%", "[replay]") {
  // dp = 4 replicas of a tp 2 x pp 2 pipeline; DP gradient reduction overlaps the backward.
  const double full = iteration("workloads/default.yaml", {}, CollectiveMode::kBulk, false);
  const double folded = iteration("workloads/default.yaml", {}, CollectiveMode::kBulk, true);
  CHECK(folded == Approx(full).epsilon(0.01));
  // Without overlap the reduction is fully exposed, so its flows decide the tail: still within 1%.
  const std::vector<std::string> exposed = {"strategy.overlap.dp_grad_reduce=false", "strategy.zero_stage=0"};
  CHECK(iteration("workloads/default.yaml", exposed, CollectiveMode::kBulk, true) ==
        Approx(iteration("workloads/default.yaml", exposed, CollectiveMode::kBulk, false)).epsilon(0.01));
}

TEST_CASE("folding tensor-parallel ranks agrees with the full replay within 1%", "[replay]") {
  // tp = 2 inside NVLink islands: the replayed rank's TP flows use exactly its own two ports.
  const double full = iteration("workloads/default.yaml", {}, CollectiveMode::kBulk, false);
  CHECK(iteration("workloads/default.yaml", {}, CollectiveMode::kBulk, false, true) == Approx(full).epsilon(0.01));
  CHECK(iteration("workloads/default.yaml", {}, CollectiveMode::kBulk, true, true) == Approx(full).epsilon(0.01));
}

TEST_CASE("overlap switches move the iteration time the way their mechanism implies", "[replay]") {
  // TP comm/GEMM overlap hides part of every TP collective: strictly faster. Blocking pipeline
  // sends (pp_comm false) can only add waiting: never faster.
  const double base = iteration("workloads/default.yaml", {}, CollectiveMode::kBulk, false);
  CHECK(iteration("workloads/default.yaml", {"strategy.overlap.tp_comm=true"}, CollectiveMode::kBulk, false) <
        0.97 * base);
  CHECK(iteration("workloads/default.yaml", {"strategy.overlap.pp_comm=false"}, CollectiveMode::kBulk, false) >= base);
}
