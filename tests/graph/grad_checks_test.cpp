// strategy.grad_nan_check / grad_scale_kernel: Megatron-Core's per-bucket work before each gradient
// bucket's reduction, on the compute stream of the last backward (sim/graph/grad_checks.hpp).
#include <catch2/catch.hpp>

#include <boost/graph/adjacency_list.hpp>
#include <string>
#include <vector>

#include "sim/graph/builder.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;
using namespace trainsim::test;

namespace {

// l = 6 over pp = 3: stage 1 holds 2 equal layers and neither embedding nor output layer.
RunSpec checked_run(bool nan_check, bool scale) {
  RunSpec run = gpt_run(gpt_model(6, 256, 4, 1024), 2, 3, 2, 128, 24, 2);
  run.strategy.zero_stage = 1;
  run.strategy.grad_nan_check = nan_check;
  run.strategy.grad_scale_kernel = scale;
  // A bucket of exactly one layer's fp32 gradients (4 bytes per parameter).
  run.strategy.grad_bucket_size = 4.0 * static_cast<double>(stage_params(run, 1).total()) / 2;
  return run;
}

std::vector<TaskId> labelled(const StageGraph& g, const std::string& label) {
  std::vector<TaskId> out;
  for (TaskId t : g.order(Stream::kCompute))
    if (g.label_text(g.task(t).label) == label) out.push_back(t);
  return out;
}

std::vector<TaskId> reduce_scatters(const StageGraph& g) {
  std::vector<TaskId> out;
  for (TaskId t : g.order(Stream::kDp))
    if (g.task(t).collective == CollectiveKind::kReduceScatter) out.push_back(t);
  return out;
}

// The task labelled `label` that task t depends on directly, or -1.
int64_t predecessor(const StageGraph& g, TaskId t, const std::string& label) {
  for (auto [e, end] = boost::in_edges(t, g.dag()); e != end; ++e)
    if (g.label_text(g.task(boost::source(*e, g.dag())).label) == label) return boost::source(*e, g.dag());
  return -1;
}

}  // namespace

TEST_CASE("each gradient bucket is normed and scaled once, reading and writing its fp32 gradients", "[graph]") {
  const RunSpec run = checked_run(true, true);
  const double layer = static_cast<double>(stage_params(run, 1).total()) / 2;
  const StageGraph g = build_stage_graph(run, 1);
  const auto norms = labelled(g, "dp.grad_norm"), scales = labelled(g, "dp.grad_scale");
  REQUIRE(norms.size() == 2);  // one bucket per layer
  REQUIRE(scales.size() == 2);
  for (TaskId t : norms) CHECK(g.task(t).bytes == Approx(4.0 * layer));   // read once
  for (TaskId t : scales) CHECK(g.task(t).bytes == Approx(8.0 * layer));  // read and written
  // Each bucket's reduce-scatter starts after its scaling (its only predecessor on the compute stream).
  const auto reductions = reduce_scatters(g);
  CHECK(reductions.size() == 2);
  for (TaskId t : reductions) CHECK(predecessor(g, t, "dp.grad_scale") >= 0);
}

TEST_CASE("the per-bucket kernels run only in the last backward and only when asked for", "[graph]") {
  const StageGraph none = build_stage_graph(checked_run(false, false), 1);
  CHECK(labelled(none, "dp.grad_norm").empty());
  CHECK(labelled(none, "dp.grad_scale").empty());
  const StageGraph norm_only = build_stage_graph(checked_run(true, false), 1);
  CHECK(labelled(norm_only, "dp.grad_norm").size() == 2);
  CHECK(labelled(norm_only, "dp.grad_scale").empty());
  // 24 sequences in micro-batches of 2 over dp 2: 6 micro-batches; the kernels belong to the last one's
  // backward, and nothing else was added.
  for (TaskId t : labelled(norm_only, "dp.grad_norm")) CHECK(norm_only.task(t).microbatch == 5);
  CHECK(norm_only.order(Stream::kCompute).size() == none.order(Stream::kCompute).size() + 2);
}

TEST_CASE("a bucket's reduction is launched after the host has read its norm", "[graph]") {
  // A framework whose launches cost far more than this tiny model's kernels: each bucket's host sync
  // leaves host time exposed, appended as a compute task, and the reduction follows it.
  RunSpec run = checked_run(true, false);
  run.framework.host.launch = 1e-3;
  const StageGraph g = build_stage_graph(run, 1);
  const auto reductions = reduce_scatters(g);
  CHECK(reductions.size() == 2);
  for (TaskId t : reductions) CHECK(predecessor(g, t, "host.launches") >= 0);
}

TEST_CASE("a dense and an expert bucket closing together each wait for their own kernels", "[graph]") {
  // dp 4, ep 2, one bucket for the whole stage: at its last item the dense bucket and the routed
  // experts' bucket (their own group, cp*dp/ep = 2) both close. Stage 1's 2 layers hold 2 x 4 experts of
  // 2 matrices 256 x 512 = 2,097,152 expert parameters; each reduction follows the scaling of its own
  // parameters' fp32 gradients (read and written: 8 bytes each).
  RunSpec run = gpt_run(gpt_moe_model(), 1, 3, 4, 128, 24, 2);
  run.strategy.ep = 2;
  run.strategy.zero_stage = 1;
  run.strategy.grad_scale_kernel = true;
  run.strategy.grad_bucket_size = 1e12;  // never full: the stage's last item closes both
  const double experts = 2.0 * 4 * 2 * 256 * 512;
  const double all = static_cast<double>(stage_params(run, 1).total());
  const StageGraph g = build_stage_graph(run, 1);
  const auto reductions = reduce_scatters(g);
  CHECK(reductions.size() == 2);
  for (TaskId t : reductions) {
    const int64_t scale = predecessor(g, t, "dp.grad_scale");
    REQUIRE(scale >= 0);
    const double own = g.task(t).group == Dim::kEdp ? experts : all - experts;
    CHECK(g.task(static_cast<TaskId>(scale)).bytes == Approx(8.0 * own));
  }
}
