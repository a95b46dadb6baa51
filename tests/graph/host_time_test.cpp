// Host time of the framework (sim/graph/host_time.hpp): the pure formula by hand, then one
// device whose timeline is the sum of its passes, blocking and asynchronous.
#include <catch2/catch.hpp>
#include <sstream>

#include "sim/core/child_process.hpp"
#include "sim/graph/builder.hpp"
#include "sim/graph/host_time.hpp"
#include "sim/replay/engine.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

TEST_CASE("the device waits for the host's launches from an empty queue, worked by hand", "[graph][framework]") {
  HostCosts h;
  h.launch = 10e-6;
  const Launches one{1, 0};
  // Three kernels of 5, 30 and 5 us, issued 10 us apart from an empty queue: the host issues them at
  // 10, 20 and 30 us; the device runs 10-15, 20-50 and 50-55. It waited 15 us (10 before the first
  // kernel, 5 before the second) although the host needs 30 us in all against 40 us of kernels.
  const IssueSpan span =
      issue_span(h, one, 5e-6).then(issue_span(h, one, 30e-6)).then(issue_span(h, one, 5e-6));
  CHECK(span.host == Approx(30e-6));
  CHECK(span.device == Approx(40e-6));
  CHECK(span.idle == Approx(15e-6));
  // Issued the other way round (30, 5, 5 us: 10-40, 40-45, 45-50) it waits only for the first launch.
  CHECK(issue_span(h, one, 30e-6).then(issue_span(h, one, 5e-6)).then(issue_span(h, one, 5e-6)).idle ==
        Approx(10e-6));
  // One entry of 4 launches (a grouped GEMM per expert): 4 equal kernels issued 10 us apart. Of 100 us
  // the device waits for the first launch only; of 20 us (5 each: 10-15, 20-25, 30-35, 40-45) 25 us.
  CHECK(issue_span(h, Launches{1, 3}, 100e-6).idle == Approx(10e-6));
  CHECK(issue_span(h, Launches{1, 3}, 20e-6).idle == Approx(25e-6));
  // A framework call that makes 3 more launches inside a library at 2 us each, of 1 us kernels: launched
  // at 10, 12, 14 and 16 us, they run 10-11, 12-13, 14-15 and 16-17: 13 us idle (the first launch is
  // the call's, not an average).
  HostCosts lib = h;
  lib.library_launch = 2e-6;
  CHECK(issue_span(lib, Launches{1, 3}, 4e-6).host == Approx(16e-6));
  CHECK(issue_span(lib, Launches{1, 3}, 4e-6).idle == Approx(13e-6));
  // A pass: 1 ms of pass cost and 3 instructions of 0.1 ms come before its first launch.
  h.pass = 1e-3;
  h.pipeline_instruction = 1e-4;
  const IssueSegments pass{{span}};
  CHECK(exposed_host_time(h, pass, 3) == Approx(1.315e-3));  // asynchronous: 1.3 ms + the 15 us waited
  h.launch_blocking = true;
  CHECK(exposed_host_time(h, pass, 3) == Approx(1.33e-3));   // blocking: 1.3 ms + every launch
  h.launch_blocking = false;
  h.cuda_graphs = true;                                       // one launch for the pass
  CHECK(exposed_host_time(h, pass, 3) == Approx(1.31e-3));
  CHECK(exposed_host_time(HostCosts{}, pass, 3) == 0);        // no framework: nothing
  // A host synchronisation after the second kernel: the third is issued to an empty queue again and
  // waits for its launch: 15 + 10 us.
  h = HostCosts{};
  h.launch = 10e-6;
  IssueSegments synced;
  synced.add(issue_span(h, one, 5e-6));
  synced.add(issue_span(h, one, 30e-6));
  synced.sync();
  synced.add(issue_span(h, one, 5e-6));
  CHECK(exposed_host_time(h, synced, 0) == Approx(25e-6));
  // A pass that began without a synchronisation: the host may bring a lead, so its first segment
  // exposes only what its launches take beyond its kernels, max(0, 20 - 35 us) = 0; the third kernel
  // still waits for its launch after the sync.
  synced.lead_carried = true;
  CHECK(exposed_host_time(h, synced, 0) == Approx(10e-6));
  // The pass's own host cost (1 ms) is host time before the first launch: exposed from an empty queue,
  // hidden with a lead as far as the first segment's kernels (35 us) outlast its launches (20 us).
  h.pass = 1e-3;
  CHECK(exposed_host_time(h, synced, 0) == Approx(1e-3 + 20e-6 - 35e-6 + 10e-6));
  synced.lead_carried = false;
  CHECK(exposed_host_time(h, synced, 0) == Approx(1e-3 + 15e-6 + 10e-6));
}

namespace {

// One device (tp = pp = dp = 1), two micro-batches: its iteration is the sum of its four passes
// and the optimizer, so host time adds up pass by pass.
RunSpec one_device(const HostCosts& host) {
  RunSpec run = test::gpt_run(test::gpt_model(2, 256, 4, 1000), 1, 1, 1, 128, 2, 1);
  run.framework.name = "test";
  run.framework.host = host;
  return run;
}

double iteration(const RunSpec& run) {
  return std::stod(call_in_child([&] {
    std::ostringstream s;
    s.precision(17);
    s << replay(run, build_run_graph(run), Mesh(run.strategy), ReplayOptions{}).iteration_time;
    return s.str();
  }));
}

// Launches (tasks) and device seconds of the passes: every task tied to a micro-batch.
struct PassTotals {
  int launches = 0;
  int passes = 0;
  double device = 0;
};
PassTotals pass_totals(const RunSpec& run) {
  const RunGraph g = build_run_graph(run);
  PassTotals t;
  t.passes = 2 * run.microbatches();
  for (size_t id = 0; id < g.stages[0].size(); ++id) {
    const Task& task = g.stages[0].task(static_cast<TaskId>(id));
    if (task.microbatch < 0) continue;
    ++t.launches;
    if (task.kind == TaskKind::kCompute) t.device += task.duration;
  }
  return t;
}

}  // namespace

TEST_CASE("blocking launches add launch time x launches to a one-device timeline", "[graph][framework]") {
  const double base = iteration(one_device(HostCosts{}));
  const PassTotals p = pass_totals(one_device(HostCosts{}));
  REQUIRE(p.launches > 4 * p.passes);  // each pass issues several kernels
  HostCosts h;
  h.launch = 1e-5;
  h.pass = 2e-4;
  h.launch_blocking = true;
  CHECK(iteration(one_device(h)) == Approx(base + p.launches * h.launch + p.passes * h.pass).epsilon(1e-9));
}

TEST_CASE("asynchronous launches cost nothing until the host is slower than the device", "[graph][framework]") {
  const double base = iteration(one_device(HostCosts{}));
  const PassTotals p = pass_totals(one_device(HostCosts{}));
  // Without a pipeline nothing synchronises between passes: the host keeps the lead it builds, and a
  // pass exposes only what its launches take beyond its kernels.
  REQUIRE(!pass_starts_empty(one_device(HostCosts{}), true, true, false));
  RunSpec pipelined = one_device(HostCosts{});
  pipelined.strategy.pp = 2;
  pipelined.strategy.overlap.pp_comm = false;  // batched transfers, then torch.cuda.synchronize()
  CHECK(pass_starts_empty(pipelined, false, true, false));  // the last stage's forward: after a receive
  CHECK(pass_starts_empty(pipelined, true, false, true));   // the first stage's backward: likewise
  // Plain 1F1B: the first stage's forward follows its own backward, which sends nothing, and the last
  // stage's backward its own forward.
  CHECK(!pass_starts_empty(pipelined, true, false, false));
  CHECK(!pass_starts_empty(pipelined, false, true, true));
  pipelined.strategy.schedule = "interleaved";           // every step of the interleaved schedule transfers
  pipelined.strategy.virtual_stages = 2;
  CHECK(pass_starts_empty(pipelined, true, false, false));
  pipelined.strategy.overlap.pp_comm = true;   // transfers waited for on the device
  CHECK(!pass_starts_empty(pipelined, false, true, false));
  HostCosts fast;
  fast.launch = 1e-9;  // far below any kernel: hidden
  CHECK(iteration(one_device(fast)) == Approx(base).epsilon(1e-12));
  HostCosts slow;
  slow.launch = 1e-2;  // 10 ms per launch: every pass is host-bound and takes launches x 10 ms
  const double host_bound = p.launches * slow.launch;
  CHECK(iteration(one_device(slow)) == Approx(base - p.device + host_bound).epsilon(1e-9));
}

TEST_CASE("a platform's host_slowdown multiplies every framework host cost", "[graph][framework]") {
  HostCosts h;
  h.launch = 1e-5, h.library_launch = 2e-6, h.pass = 1e-3, h.pipeline_instruction = 1e-4;
  PlatformSpec grace;
  grace.host_slowdown = 2.75;  // a Grace host against the DGX H100 reference
  const HostCosts on = host_costs_on(h, grace);
  CHECK(on.launch == Approx(2.75e-5));
  CHECK(on.library_launch == Approx(5.5e-6));
  CHECK(on.pass == Approx(2.75e-3));
  CHECK(on.pipeline_instruction == Approx(2.75e-4));
  // Blocking launches on one device: the host time added to the timeline grows by the same factor.
  const PassTotals p = pass_totals(one_device(HostCosts{}));
  const double base = iteration(one_device(HostCosts{}));
  HostCosts blocking;
  blocking.launch = 1e-5;
  blocking.launch_blocking = true;
  RunSpec run = one_device(blocking);
  run.platform.host_slowdown = 2;
  CHECK(iteration(run) == Approx(base + p.launches * 2 * blocking.launch).epsilon(1e-9));
}
