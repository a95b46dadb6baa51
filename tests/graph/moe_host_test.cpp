// The framework's MoE behaviour on the host: a dispatcher that reads routing counts on the host
// (FrameworkMoe::dispatch_sync), grouped GEMMs launched one per expert (per_expert_gemms) and the eager
// operations around the experts (per_expert_bias, separate_glu_clamp).
#include <catch2/catch.hpp>
#include <algorithm>

#include "sim/analytic/comm_times.hpp"
#include "sim/analytic/compute_time.hpp"
#include "sim/analytic/run_payloads.hpp"
#include "sim/analytic/host_time.hpp"
#include "sim/analytic/pass_times.hpp"
#include "sim/analytic/stage_compute.hpp"
#include "sim/graph/builder.hpp"
#include "sim/model/expert_eager_ops.hpp"
#include "sim/model/moe_ops.hpp"
#include "sim/strategy/stage_layout.hpp"
#include "tests/support/graph_edges.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

namespace {

constexpr double kLaunch = 5e-6;  // host seconds per launch

// One device, one MoE layer of 4 wide experts (every token to all 4: 512 rows each), one micro-batch
// of 512 tokens (h 256): the attention block, router and permute before the dispatch take a few
// microseconds of device time, the expert GEMMs after it about 70 us each.
RunSpec moe_device(bool sync, bool per_expert) {
  ModelSpec m = test::gpt_model(1, 256, 4, 1000);
  m.moe.experts = 4;
  m.moe.top_k = 4;
  m.moe.expert_ffn_hidden = 65536;
  RunSpec run = test::gpt_run(m, 1, 1, 1, 512, 1, 1);
  run.framework.name = "test";
  run.framework.host.launch = kLaunch;
  run.framework.moe.dispatch_sync = sync;
  run.framework.moe.per_expert_gemms = per_expert;
  return run;
}

// Host tasks of the forward pass, in order.
std::vector<double> forward_host_tasks(const RunSpec& run) {
  const StageGraph g = build_stage_graph(run, 0);
  std::vector<double> out;
  for (size_t id = 0; id < g.size(); ++id) {
    const Task& t = g.task(static_cast<TaskId>(id));
    if (t.role == TaskRole::kHost && t.microbatch == 0 && out.size() < 2) out.push_back(t.duration);
    if (g.label_text(t.label) == "embedding.wgrad") break;
  }
  return out;
}

// The tasks issued before each of the forward's host tasks (the first `n` segments): how many (one
// launch each) and their device seconds.
struct FirstSegment {
  int calls = 0;
  double device = 0;
  double last = 0;     // device seconds of its last task
  double longest = 0;  // of its longest task
};
std::vector<FirstSegment> forward_segments(const RunSpec& run, size_t n) {
  const StageGraph g = build_stage_graph(run, 0);
  std::vector<FirstSegment> out(1);
  for (size_t id = 0; id < g.size(); ++id) {
    const Task& t = g.task(static_cast<TaskId>(id));
    if (t.role == TaskRole::kHost) {
      if (out.size() == n) break;
      out.emplace_back();
      continue;
    }
    ++out.back().calls;
    out.back().last = t.kind == TaskKind::kCompute ? t.duration : 0;
    out.back().device += out.back().last;
    out.back().longest = std::max(out.back().longest, out.back().last);
  }
  return out;
}
FirstSegment first_segment(const RunSpec& run) { return forward_segments(run, 1)[0]; }

// The host seconds the iteration formulas add to stage 0's forward: with the run's host costs less without.
double formula_forward_host(const RunSpec& run) {
  RunSpec free_host = run;
  free_host.framework.host = HostCosts{};
  const StageCompute with = stage_compute(run, block_times(run), stage_chunks(pipeline_split(run), 0));
  const StageCompute without =
      stage_compute(free_host, block_times(free_host), stage_chunks(pipeline_split(free_host), 0));
  return with.forward - without.forward;
}

}  // namespace

TEST_CASE("a per-expert grouped GEMM pays the launch cost once per local expert", "[model][moe]") {
  ModelSpec m = test::gpt_model(1, 256, 4, 1000);
  m.moe.experts = 4;
  m.moe.top_k = 4;
  m.moe.expert_ffn_hidden = 1024;
  Shard sh = test::shard(1, 512);
  sh.per_expert_gemms = true;
  for (const Kernel& k : moe_forward(m, sh))
    if (k.cls == KernelClass::kGemm) CHECK(k.launches == (k.name.rfind("moe_expert", 0) == 0 ? 4 : 1));
  // kernel_time adds kernel_overhead per launch: 4 launches of a GEMM cost 3 overheads more than 1.
  AcceleratorSpec acc = test::tiny_accelerator();
  acc.kernel_overhead = 1e-5;
  Kernel grouped = test::find_kernel(moe_forward(m, test::shard(1, 512)), "moe_expert_fc1.fwd");
  Kernel each = grouped;
  each.launches = 4;
  CHECK(kernel_time(each, acc) - kernel_time(grouped, acc) == Approx(3e-5));
}

TEST_CASE("a dispatch sync makes the device wait for the host's launches again", "[graph][moe][framework]") {
  // One device, no pipeline: nothing synchronises between passes, so a pass exposes only what its
  // launches take beyond its kernels. With launches far shorter than any kernel: nothing.
  RunSpec plain = moe_device(false, false);
  plain.framework.host.launch = 1e-9;
  CHECK(forward_host_tasks(plain).empty());
  // With the sync the host waits for the device before the dispatch: the expert kernel after it is
  // issued to an empty queue and waits for its launch.
  RunSpec synced = moe_device(true, false);
  synced.framework.host.launch = 1e-9;
  CHECK(forward_host_tasks(synced) == std::vector<double>{1e-9});
  // At 5 us per launch the segment before the sync (embedding, attention block, norm, router, top-k,
  // permute: few microseconds of device work and one launch each) leaves its launches' time minus its
  // device time exposed.
  const RunSpec slow = moe_device(true, false);
  const FirstSegment before = first_segment(slow);
  REQUIRE(before.calls * kLaunch > before.device);
  const std::vector<double> host = forward_host_tasks(slow);
  REQUIRE(!host.empty());
  CHECK(host[0] == Approx(before.calls * kLaunch - before.device));
}

TEST_CASE("the launches a grouped GEMM makes per expert pay the library launch cost", "[graph][moe][framework]") {
  // A host-bound forward (1 ms per catalogue launch): its host task holds calls x 1 ms + library x
  // 2 us - device time. Library launches by hand: fc1 and fc2 of 4 experts, 3 beyond the first each.
  RunSpec run = moe_device(false, true);
  run.framework.host.launch = 1e-3;
  run.framework.host.library_launch = 2e-6;
  const FirstSegment pass = first_segment(run);
  const int library = 2 * 3;
  const std::vector<double> host = forward_host_tasks(run);
  REQUIRE(!host.empty());
  // The pass's pipeline send would add a call; one stage has none (the loss ends the forward).
  CHECK(host[0] == Approx(pass.calls * 1e-3 + library * 2e-6 - pass.device));
  // The formulas charge the same.
  CHECK(formula_forward_host(run) == Approx(host[0]).epsilon(1e-9));
}

TEST_CASE("the eager expert kernels' framework calls pay the full launch cost in the graph and the formulas",
          "[graph][moe][framework]") {
  // A host-bound forward (1 ms per launch) with the clamped GLU and the per-expert bias (4 local
  // experts): beyond one call per task, the clamp's 3 kernels and the bias's 2 x 4 + 1 are each a
  // framework call (2 + 8 more calls); no library launches. The activation's device scalar
  // synchronises after the clamps: two segments, the clamps' calls in the first, the bias's in the
  // second.
  RunSpec run = moe_device(false, false);
  run.model.gated_ffn = true;
  run.model.moe.expert_bias = true;
  run.model.moe.glu_clamp = 7;
  run.framework.moe.per_expert_bias = true;
  run.framework.moe.separate_glu_clamp = true;
  run.framework.host.launch = 1e-3;
  const std::vector<FirstSegment> segments = forward_segments(run, 2);
  const std::vector<double> host = forward_host_tasks(run);
  REQUIRE(host.size() == 2);
  REQUIRE(segments.size() == 2);
  // The pass's first segment: its launches' time beyond its device time (no sync before it). The
  // second starts from an empty queue after the sync; every launch outlasts its kernel, so the device
  // waits for all of them and runs the last kernel after.
  CHECK(host[0] == Approx((segments[0].calls + 2) * 1e-3 - segments[0].device));
  CHECK(host[1] == Approx((segments[1].calls + 8) * 1e-3 - segments[1].device + segments[1].last));
  CHECK(formula_forward_host(run) == Approx(host[0] + host[1]).epsilon(1e-9));
}

TEST_CASE("a recomputed clamped GLU synchronises the host again, in the graph and the formulas", "[graph][moe][framework]") {
  // Selective recompute of moe_act re-runs the clamps, whose device scalar synchronises the host as in
  // the forward: the backward gets a host task right after the re-run clamps.
  RunSpec run = moe_device(false, false);
  run.model.gated_ffn = true;
  run.model.moe.glu_clamp = 7;
  run.framework.moe.separate_glu_clamp = true;
  run.framework.host.launch = 1e-3;
  run.strategy.recompute = Recompute::kSelective;
  run.strategy.recompute_modules.moe_act = true;
  const StageGraph g = build_stage_graph(run, 0);
  int synced_redo = 0;
  for (size_t id = 1; id < g.size(); ++id) {
    const Task& before = g.task(static_cast<TaskId>(id - 1));
    if (before.role == TaskRole::kRecompute && g.label_text(before.label) == kGluClampForward)
      synced_redo += g.task(static_cast<TaskId>(id)).role == TaskRole::kHost ? 1 : 0;
  }
  CHECK(synced_redo == run.microbatches());
  // The formulas' backward closes a segment there too: its host time is the graph's backward host
  // tasks of the first micro-batch (1 ms launches: every segment host-bound).
  double graph_backward_host = 0;
  for (size_t id = 1; id < g.size(); ++id) {
    const Task& t = g.task(static_cast<TaskId>(id));
    const TaskRole prev = g.task(static_cast<TaskId>(id - 1)).role;
    if (t.role == TaskRole::kHost && t.microbatch == 0 && (prev == TaskRole::kBackward || prev == TaskRole::kRecompute))
      graph_backward_host += t.duration;
  }
  RunSpec free_host = run;
  free_host.framework.host = HostCosts{};
  const StageCompute with = stage_compute(run, block_times(run), stage_chunks(pipeline_split(run), 0));
  const StageCompute without =
      stage_compute(free_host, block_times(free_host), stage_chunks(pipeline_split(free_host), 0));
  CHECK(with.backward_input - without.backward_input == Approx(graph_backward_host).epsilon(1e-9));
}

TEST_CASE("on a plain two-stage pipeline the formulas' host time per pass is the graph's", "[graph][analytic][moe][framework]") {
  // Two stages, plain 1F1B, transfers not overlapped: the last stage's forward and the first stage's
  // backward start from an empty queue after a transfer; the first stage's forward and the last stage's
  // backward keep the host's lead. Host-bound (1 ms launches), with the dispatch sync.
  RunSpec run = moe_device(true, false);
  run.model.layers = 2;
  run.devices = 2;
  run.strategy.pp = 2;
  run.strategy.overlap.pp_comm = false;
  run.framework.host.launch = 1e-3;
  RunSpec free_host = run;
  free_host.framework.host = HostCosts{};
  for (int stage = 0; stage < 2; ++stage) {
    const StageGraph g = build_stage_graph(run, stage);
    double forward = 0, backward = 0;
    for (size_t id = 1; id < g.size(); ++id) {
      const Task& t = g.task(static_cast<TaskId>(id));
      if (t.role != TaskRole::kHost || t.microbatch != 0) continue;
      (g.task(static_cast<TaskId>(id - 1)).role == TaskRole::kForward ? forward : backward) += t.duration;
    }
    const auto chunks = stage_chunks(pipeline_split(run), stage);
    const StageCompute with = stage_compute(run, block_times(run), chunks);
    const StageCompute without = stage_compute(free_host, block_times(free_host), chunks);
    INFO("stage " << stage);
    CHECK(forward > 0);
    CHECK(with.forward - without.forward == Approx(forward).epsilon(1e-9));
    CHECK(with.backward_input - without.backward_input == Approx(backward).epsilon(1e-9));
  }
}

TEST_CASE("the EP combine waits for the bias added per expert after the last expert GEMM", "[graph][moe]") {
  RunSpec run = moe_device(false, false);
  run.model.moe.expert_bias = true;
  run.framework.moe.per_expert_bias = true;
  run.devices = 2;
  run.strategy.dp = 2;
  run.strategy.ep = 2;
  run.global_batch = 2;
  const StageGraph g = build_stage_graph(run, 0);
  std::vector<std::string> before_combine;
  for (size_t id = 0; id < g.size() && before_combine.empty(); ++id)
    if (g.label_text(g.task(static_cast<TaskId>(id)).label) == "ep.combine")
      before_combine = test::predecessor_labels(g, static_cast<TaskId>(id));
  CHECK(before_combine == std::vector<std::string>{"moe_expert_bias.fwd"});
}

TEST_CASE("the formulas split an MoE forward at the dispatch sync as the graph does", "[analytic][moe][framework]") {
  // The formulas issue the same launches in the same order as the graph: the forward's host time is
  // the graph's host tasks of that forward, with the sync (two segments) and without (one).
  for (const bool sync : {true, false}) {
    const RunSpec run = moe_device(sync, true);
    const std::vector<double> host = forward_host_tasks(run);
    REQUIRE(host.size() == (sync ? 2u : 0u));  // unsynced, the pass's device time hides its launches
    CHECK(formula_forward_host(run) == Approx(sync ? host[0] + host[1] : 0).margin(1e-12));
  }
}

TEST_CASE("the host issues on while the experts wait for the EP dispatch, in the graph and the formulas",
          "[graph][analytic][moe][framework]") {
  // Two devices, ep 2, 1 ms launches: the second segment (after the sync) holds the dispatch and, after
  // the experts, the combine. Each holds the compute stream for its uncontended time A, during which
  // the host issues on: the device waits A less for each (A < 1 ms here).
  RunSpec run = moe_device(true, false);
  run.devices = 2;
  run.strategy.dp = 2;
  run.strategy.ep = 2;
  run.global_batch = 2;
  run.framework.host.launch = 1e-3;
  const CommCosts cc(run);
  const double a = cc.collective(0, Dim::kEp, CollectiveKind::kAllToAll, payloads(run).ep);
  REQUIRE(a > 0);
  REQUIRE(a < 1e-3);
  const std::vector<FirstSegment> segments = forward_segments(run, 2);
  const std::vector<double> host = forward_host_tasks(run);
  REQUIRE(host.size() == 2);
  // Host-bound from the dispatch on: the device waits for every launch less the time it spends in
  // kernels and the two exchanges before the last launch, and runs the last kernel after it.
  CHECK(host[1] == Approx(segments[1].calls * 1e-3 - segments[1].device - 2 * a + segments[1].last));
  CHECK(formula_forward_host(run) == Approx(host[0] + host[1]).epsilon(1e-9));
}

TEST_CASE("routing load: imbalance, dropping at capacity and padding set the rows per expert", "[config][moe]") {
  RunSpec run = moe_device(false, false);
  CHECK(run.expert_load() == 1.0);
  run.moe.imbalance = 1.5;  // the busiest rank gets 1.5 even shares
  CHECK(run.expert_load() == 1.5);
  run.moe.capacity_factor = 1.25;  // dropped above 1.25
  CHECK(run.expert_load() == 1.25);
  run.moe.pad_to_capacity = true;  // padded to exactly 1.25, whatever the routing
  run.moe.imbalance = 1.0;
  CHECK(run.expert_load() == 1.25);
  // 512 tokens x top-4 / 4 experts = 512 rows each, x 1.25 = 640.
  Shard sh = shard_of(run);
  CHECK(tokens_per_local_expert(run.model, sh) == 640);
}
