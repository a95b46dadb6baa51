// A weight-gradient GEMM runs beside the TP collective of the input gradient computed just before it
// (Megatron's asynchronous all-reduce), unless strategy.overlap.tp_grad_reduce is off (Megatron-LM of
// 2021; blocking launches turn it off, tests/config/framework_loader_test.cpp): then the weight
// gradient waits for the collective.
#include <catch2/catch.hpp>

#include <boost/graph/adjacency_list.hpp>
#include <string>
#include <utility>
#include <vector>

#include "sim/graph/builder.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

namespace {

// The weight-gradient tasks of the backward that wait for a TP collective, and how many there are.
std::pair<std::vector<std::string>, int> wgrads_after_tp(bool beside) {
  RunSpec run = test::gpt_run(test::gpt_model(1, 256, 4, 1000), 2, 1, 1, 512, 1, 1);
  run.strategy.overlap.tp_grad_reduce = beside;
  const StageGraph g = build_stage_graph(run, 0);
  std::vector<std::string> waiting;
  int all = 0;
  for (size_t id = 0; id < g.size(); ++id) {
    const Task& t = g.task(static_cast<TaskId>(id));
    const std::string label = g.label_text(t.label);
    if (t.role != TaskRole::kBackward || label.size() < 6 || label.compare(label.size() - 6, 6, ".wgrad") != 0) continue;
    ++all;
    for (auto [e, end] = boost::in_edges(static_cast<TaskId>(id), g.dag()); e != end; ++e) {
      const Task& from = g.task(static_cast<TaskId>(boost::source(*e, g.dag())));
      if (from.kind == TaskKind::kCollective && from.stream == Stream::kTp) waiting.push_back(label);
    }
  }
  return {waiting, all};
}

}  // namespace

TEST_CASE("weight gradients run beside the input gradient's TP all-reduce unless overlap.tp_grad_reduce is off",
          "[graph][framework]") {
  const auto [async_waiting, async_all] = wgrads_after_tp(true);
  const auto [blocking_waiting, blocking_all] = wgrads_after_tp(false);
  REQUIRE(async_all > 0);
  CHECK(blocking_all == async_all);
  CHECK(async_waiting.empty());
  // Each column-parallel GEMM's input gradient is all-reduced (the logits', the MLP's first and
  // attention's QKV GEMM, in backward order); its weight gradient, issued next, waits for that.
  CHECK(blocking_waiting == std::vector<std::string>{"logits.wgrad", "mlp_fc1.wgrad", "qkv_proj.wgrad"});
}

namespace {

// Labels of the backward's TP collectives with the compute tasks each waits for, and of the
// weight-gradient tasks with the TP collectives each waits for: "a<-b" for an edge b -> a.
std::vector<std::string> backward_tp_edges(const StageGraph& g) {
  std::vector<std::string> edges;
  for (size_t id = 0; id < g.size(); ++id) {
    const Task& t = g.task(static_cast<TaskId>(id));
    if (t.role != TaskRole::kBackward) continue;
    const std::string label = g.label_text(t.label);
    const bool wgrad = label.size() > 6 && label.compare(label.size() - 6, 6, ".wgrad") == 0;
    const bool tp = t.kind == TaskKind::kCollective && t.stream == Stream::kTp;
    if (!wgrad && !tp) continue;
    for (auto [e, end] = boost::in_edges(static_cast<TaskId>(id), g.dag()); e != end; ++e) {
      const Task& from = g.task(static_cast<TaskId>(boost::source(*e, g.dag())));
      const bool from_tp = from.kind == TaskKind::kCollective && from.stream == Stream::kTp;
      if ((tp && from.kind == TaskKind::kCompute) || (wgrad && from_tp))
        edges.push_back(label + "<-" + g.label_text(from.label));
    }
  }
  return edges;
}

}  // namespace

// Transformer Engine's TP overlap, as Megatron-Core sets it by default (tp_comm_overlap_rs_dgrad off,
// bulk dgrad and wgrad overlaps on; sim/graph/block_tasks.cpp: tp_overlap): a row-parallel layer's
// output gradient is all-gathered pipelined with its input-gradient GEMM, and its weight gradient
// needs that gathered gradient too; a column-parallel layer re-gathers its input beside its
// input-gradient GEMM, which its weight gradient needs, and reduce-scatters the GEMM's output after
// it, beside the weight gradient. One layer, tp 2 with SP, worked from the layer's kernels.
TEST_CASE("with TP overlap the backward reduces a column-parallel input gradient after its GEMM, beside the weight gradient",
          "[graph][framework]") {
  RunSpec run = test::gpt_run(test::gpt_model(1, 256, 4, 1000), 2, 1, 1, 512, 1, 1);
  run.strategy.sequence_parallel = true;
  run.strategy.overlap.tp_comm = true;
  const std::vector<std::string> edges = backward_tp_edges(build_stage_graph(run, 0));
  const std::vector<std::string> expected = {
      "tp.reduce_scatter<-logits.dgrad",         "tp.all_gather<-final_norm.dgrad",
      "mlp_fc2.wgrad<-tp.all_gather",            "tp.regather_input<-mlp_act.dgrad",
      "tp.reduce_scatter<-mlp_fc1.dgrad",        "mlp_fc1.wgrad<-tp.regather_input",
      "tp.all_gather<-mlp_residual.dgrad",       "out_proj.wgrad<-tp.all_gather",
      "tp.regather_input<-rope.dgrad",           "tp.reduce_scatter<-qkv_proj.dgrad",
      "qkv_proj.wgrad<-tp.regather_input"};
  CHECK(edges == expected);
}

// Which TP collectives are pipelined with a GEMM (Task::pipelined: the replay slows them by the
// accelerator's overlap_comm_slowdown): with overlap, the forward's SP all-gather and reduce-scatter
// of each block and the backward's all-gather of a row-parallel layer's output gradient (fused with
// their GEMMs, as MindSpeed's MC2 and Transformer Engine's ub_overlap_ag / ub_overlap_rs run them);
// not the backward's re-gather and reduce-scatter (bulk, beside other GEMMs), and none without overlap.
// One layer, tp 2 with SP: per pass, attention and MLP blocks, the output layer's forward gather.
TEST_CASE("with TP overlap the forward's collectives and the backward's output-gradient gathers are pipelined",
          "[graph][framework]") {
  auto pipelined = [](bool overlap) {
    RunSpec run = test::gpt_run(test::gpt_model(1, 256, 4, 1000), 2, 1, 1, 512, 1, 1);
    run.strategy.sequence_parallel = true;
    run.strategy.overlap.tp_comm = overlap;
    const StageGraph g = build_stage_graph(run, 0);
    std::vector<std::string> labels;
    for (size_t id = 0; id < g.size(); ++id) {
      const Task& t = g.task(static_cast<TaskId>(id));
      if (t.pipelined) labels.push_back(std::string(t.role == TaskRole::kForward ? "fwd " : "bwd ") + g.label_text(t.label));
    }
    return labels;
  };
  CHECK(pipelined(false).empty());
  const std::vector<std::string> expected = {
      "fwd tp.all_gather", "fwd tp.reduce_scatter",  // attention: before QKV, after the output projection
      "fwd tp.all_gather", "fwd tp.reduce_scatter",  // MLP: before fc1, after fc2
      "fwd tp.all_gather",                           // the output layer's input (its logits stay split)
      "bwd tp.all_gather",                           // the MLP's output gradient, into fc2's dgrad
      "bwd tp.all_gather"};                          // the attention's, into the output projection's
  CHECK(pipelined(true) == expected);
}
