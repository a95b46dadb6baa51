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

TEST_CASE("exposed host time of one pass worked by hand", "[graph][framework]") {
  HostCosts h;
  h.pass = 1e-3;
  h.pipeline_instruction = 1e-4;
  h.launch = 1e-5;
  const Launches ten{10, 0};
  // host = 1 ms + 3 x 0.1 ms + 10 x 10 us = 1.4 ms.
  h.launch_blocking = true;
  CHECK(exposed_host_time(h, 2e-3, ten, 3) == Approx(1.4e-3));  // blocking: all of it, whatever the device time
  h.launch_blocking = false;
  CHECK(exposed_host_time(h, 2e-3, ten, 3) == 0);                 // device 2 ms hides 1.4 ms of host
  CHECK(exposed_host_time(h, 1e-3, ten, 3) == Approx(0.4e-3));    // device 1 ms: the host is 0.4 ms late
  // 40 library launches (4 per call, as a grouped GEMM of 5 experts): at `launch` when no library cost
  // is given (1.4 + 0.4 = 1.8 ms of host), at 2 us each when it is (1.4 + 0.08 = 1.48 ms).
  const Launches grouped{10, 40};
  CHECK(exposed_host_time(h, 1e-3, grouped, 3) == Approx(0.8e-3));
  h.library_launch = 2e-6;
  CHECK(exposed_host_time(h, 1e-3, grouped, 3) == Approx(0.48e-3));
  h.cuda_graphs = true;                                           // one launch per pass: 1 + 0.3 + 0.01 ms
  CHECK(exposed_host_time(h, 1e-3, grouped, 3) == Approx(0.31e-3));
  CHECK(exposed_host_time(HostCosts{}, 0, Launches{1000, 0}, 3) == 0);  // no framework: nothing
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
