// The tied embedding's gradient exchange between the first and last pipeline stage
// (sim/graph/tied_grads.hpp): where the builder puts it, with what bytes, and what it costs in the
// replay and in the formulas, on a tiny GPT worked by hand.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "sim/analytic/iteration_inputs.hpp"
#include "sim/core/child_process.hpp"
#include "sim/graph/builder.hpp"
#include "sim/replay/engine.hpp"
#include "tests/support/graph_edges.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;
using namespace trainsim::test;

namespace tied_grads_test {

constexpr int kHidden = 256, kVocab = 1000, kTp = 2;
// Each end's shard of the table: ceil(1000 / 2) x 256 = 128,000 elements, in fp32 gradients 512,000 B.
constexpr double kShardBytes = 500.0 * 256 * 4;
constexpr double kPortRate = 100e9, kLatency = 1e-6;  // gpt_run's island

RunSpec run_of(int pp, bool tied) {
  ModelSpec m = gpt_model(2 * pp, kHidden, 4, kVocab);
  m.tied_embeddings = tied;
  RunSpec run = gpt_run(m, kTp, pp, 1, 256, 4, 1);
  run.strategy.grad_precision = Precision::kFp32;
  return run;
}

struct Exchange {
  int sends = 0, recvs = 0;
  int offset = 0;
  double bytes = 0;
  bool optimizer_waits = false;
};

Exchange exchange_of(const StageGraph& g) {
  Exchange x;
  for (TaskId id = 0; id < g.size(); ++id) {
    const Task& t = g.task(id);
    const std::string label = g.label_text(t.label);
    if (label == "tied_embedding.grad_send") ++x.sends, x.offset = t.peer_offset, x.bytes = t.bytes;
    if (label == "tied_embedding.grad_recv") ++x.recvs, x.offset = t.peer_offset;
    if (label == "optimizer.step") {
      const std::vector<std::string> before = predecessor_labels(g, id);
      int found = 0;
      for (const std::string& b : before) found += b == "tied_embedding.grad_send" || b == "tied_embedding.grad_recv";
      x.optimizer_waits = found == 2;
    }
  }
  return x;
}

// Exposed pipeline seconds of every device, in rank order, from a replay in a child process.
std::vector<double> exposed_pp(const RunSpec& run) {
  const std::string out = call_in_child([&] {
    const Timeline t = replay(run, build_run_graph(run), Mesh(run.strategy), ReplayOptions{});
    std::ostringstream s;
    s.precision(17);
    for (const DeviceTimeline& d : t.devices) s << d.time[static_cast<size_t>(TimeCategory::kExposedPp)] << ' ';
    return s.str();
  });
  std::istringstream in(out);
  std::vector<double> v;
  for (double x; in >> x;) v.push_back(x);
  return v;
}

}  // namespace tied_grads_test

using namespace tied_grads_test;

TEST_CASE("tied embeddings on three stages: the two ends exchange their table's gradients before the optimizer",
          "[graph][pipeline]") {
  const RunSpec run = run_of(3, true);
  const Exchange first = exchange_of(build_stage_graph(run, 0));
  CHECK(first.sends == 1);
  CHECK(first.recvs == 1);
  CHECK(first.offset == -1);  // around the pipeline to the last stage
  CHECK(first.bytes == Approx(kShardBytes));
  CHECK(first.optimizer_waits);
  const Exchange last = exchange_of(build_stage_graph(run, 2));
  CHECK(last.sends == 1);
  CHECK(last.recvs == 1);
  CHECK(last.offset == 1);  // around the pipeline to the first stage
  CHECK(last.bytes == Approx(kShardBytes));
  CHECK(last.optimizer_waits);
  const Exchange middle = exchange_of(build_stage_graph(run, 1));
  CHECK(middle.sends + middle.recvs == 0);
}

TEST_CASE("untied tables, or one stage holding the one table, exchange nothing", "[graph][pipeline]") {
  const Exchange untied = exchange_of(build_stage_graph(run_of(2, false), 0));
  CHECK(untied.sends + untied.recvs == 0);
  const Exchange one_stage = exchange_of(build_stage_graph(run_of(1, true), 0));
  CHECK(one_stage.sends + one_stage.recvs == 0);
}

TEST_CASE("the exchange is exposed on both ends for latency + shard / port rate, in the replay and the formulas",
          "[graph][replay][analytic]") {
  // Two stages of tp 2 on one island. Tying changes no kernel (the last stage holds its own copy of
  // the table either way): the only difference is the exchange once both ends are ready. Stage 0
  // (ready last in 1F1B) waits for its own send, 1 us + 512,000 B / 100 GB/s = 6.12 us; stage 1
  // waits for stage 0's message (bubble until it is sent, then the same 6.12 us of bytes).
  const double exchange = kLatency + kShardBytes / kPortRate;
  const std::vector<double> tied = exposed_pp(run_of(2, true)), untied = exposed_pp(run_of(2, false));
  REQUIRE(tied.size() == 4);
  REQUIRE(untied.size() == 4);
  for (size_t d = 0; d < tied.size(); ++d) CHECK(tied[d] - untied[d] == Approx(exchange).margin(1e-10));
  const IterationInputs in = extract_iteration_inputs(run_of(2, true));
  CHECK(in.stages[0].tied_sync == Approx(exchange));
  CHECK(in.stages[1].tied_sync == Approx(exchange));
  CHECK(extract_iteration_inputs(run_of(2, false)).stages[0].tied_sync == 0);
}

TEST_CASE("with an interleaved schedule the exchange shares the wrap-around mailbox and still costs one transfer",
          "[graph][replay]") {
  // Two stages of two chunks each: the last stage's chunk-boundary activations reach stage 0 on the
  // mailbox the tied message uses (offset +1 from the last stage wraps to stage 0). Stage 0 takes that
  // mailbox's messages in order, the tied one last, so nothing waits for a message meant for another
  // task and each end's exposed pipeline time still grows by exactly latency + shard / port rate.
  auto interleaved = [](bool tied) {
    RunSpec run = run_of(2, tied);
    run.strategy.schedule = "interleaved";
    run.strategy.virtual_stages = 2;
    return run;
  };
  const double exchange = kLatency + kShardBytes / kPortRate;
  const std::vector<double> tied = exposed_pp(interleaved(true)), untied = exposed_pp(interleaved(false));
  REQUIRE(tied.size() == 4);
  REQUIRE(untied.size() == 4);
  for (size_t d = 0; d < tied.size(); ++d) CHECK(tied[d] - untied[d] == Approx(exchange).margin(1e-10));
}
