// Collective messages are matched per sender (DeviceRuntime::inbox, sim/replay/runtime.hpp). A
// receive takes the first message of its mailbox; with one mailbox per device and stream, a peer
// that ran ahead had its message taken by a receive meant for another peer: in bulk mode across
// two groups of one stream (data-parallel and expert-data-parallel gradients), step by step inside
// one (a hierarchical all-reduce whose ring neighbour ran ahead of its partner in the other
// domain). Two devices each left holding the other's message waited for each other forever, and
// SimGrid aborted ("Deadlock detected"): `trainsim fit --platform gb200-nvl72` died that way. Both
// replays below aborted before the fix.
#include <catch2/catch.hpp>

#include "sim/config/loader.hpp"
#include "sim/graph/builder.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/replay_child.hpp"

using namespace trainsim;

namespace {

// Mixtral cut to 2 layers on 144 GB200 GPUs, two 72-GPU NVLink domains, one sequence per replica,
// no folding. The expert-data-parallel groups (dp x cp / ep ranks, tp x ep apart) hold five ranks
// in one domain and four in the other: their reductions cross InfiniBand, while the data-parallel
// groups reduce mostly over NVLink, so devices reach their collectives at different times.
double replay_gb200(int tp, int dp, int ep, CollectiveMode mode) {
  const std::vector<std::string> sets = {
      "platform=gb200-nvl72",        "devices=144",
      "model.layers=2",              "seq_len=2048",
      "micro_batch=1",               "global_batch=" + std::to_string(dp),
      "strategy.tp=" + std::to_string(tp), "strategy.dp=" + std::to_string(dp),
      "strategy.ep=" + std::to_string(ep), "strategy.pp=1",
      "strategy.cp=1",               "strategy.zero_stage=0",
      "strategy.recompute=none",     "strategy.sequence_parallel=false",
      "strategy.overlap.tp_comm=false"};
  const RunSpec run = load_run(kRoot / "workloads/mixtral-8x7b-h100.yaml", sets);
  return test::replayed_iteration(run, build_run_graph(run), mode);
}

}  // namespace

TEST_CASE("a collective's messages are matched to their sender, whoever runs ahead", "[replay]") {
  // tp 2, ep 8: expert-data-parallel groups of 9 ranks 16 apart, five in one NVLink domain and four
  // in the other (aborted in bulk mode); tp 4, ep 4: the data-parallel group's hierarchical
  // all-reduce, 18 ranks per domain (aborted step by step).
  const double bulk = replay_gb200(2, 72, 8, CollectiveMode::kBulk);
  const double step = replay_gb200(4, 36, 4, CollectiveMode::kStep);
  CHECK(bulk > 0);
  CHECK(step > 0);
  // Both modes of one run agree as the design allows (bulk adds the other steps' latencies).
  CHECK(replay_gb200(2, 72, 8, CollectiveMode::kStep) == Approx(bulk).epsilon(0.01));
  CHECK(replay_gb200(4, 36, 4, CollectiveMode::kBulk) == Approx(step).epsilon(0.01));
}
