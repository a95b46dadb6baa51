// MoE parallel folding (strategy.expert_tp 1, Megatron-Core's --expert-tensor-parallel-size 1): whole
// experts, EP groups carved out of tp x cp x dp with tp fastest, the MoE block on sequence-parallel
// tokens without TP collectives. Groups, parameters, expert shapes and activation rows worked by
// hand; the replay against the formulas.
#include <catch2/catch.hpp>

#include "sim/analytic/device_memory.hpp"
#include "sim/analytic/iteration_inputs.hpp"
#include "sim/analytic/iteration_model.hpp"
#include "sim/graph/builder.hpp"
#include "sim/model/moe_ops.hpp"
#include "sim/model/optimizer_ops.hpp"
#include "sim/model/params.hpp"
#include "sim/model/shard.hpp"
#include "sim/strategy/mesh.hpp"
#include "tests/support/replay_child.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

namespace {

// Eight devices, tp 2 x dp 4, sequence parallel, ep 4: two MoE layers of 8 experts (top 2, width
// 1024, h 256), micro-batches of one 512-token sequence.
RunSpec folding_run(bool folded) {
  ModelSpec m = test::gpt_model(2, 256, 4, 1000);
  m.moe.experts = 8;
  m.moe.top_k = 2;
  m.moe.expert_ffn_hidden = 1024;
  RunSpec run = test::gpt_run(m, 2, 1, 4, 512, 8, 1);
  run.strategy.sequence_parallel = true;
  run.strategy.ep = 4;
  run.strategy.expert_tp = folded ? 1 : 0;
  return run;
}

// Tasks of the transformer layers (not the embedding or output layer) whose label starts with `prefix`.
int layer_tasks_labelled(const StageGraph& g, const std::string& prefix) {
  int n = 0;
  for (size_t id = 0; id < g.size(); ++id) {
    const Task& t = g.task(static_cast<TaskId>(id));
    n += t.layer >= 0 && g.label_text(t.label).rfind(prefix, 0) == 0 ? 1 : 0;
  }
  return n;
}

}  // namespace

TEST_CASE("folded experts carve EP groups out of tp x cp x dp, tp fastest", "[strategy][expert_tp]") {
  // Megatron rank order tp-cp-ep-dp-pp: ranks 2k and 2k+1 are a TP pair of replica k. Folded, the
  // expert index is tp + 2 dp: EP groups of 4 consecutive indices {0,1,2,3} and {4,5,6,7}, the
  // expert-DP group of rank 0 the index congruent modulo 4: {0, 4}. Unfolded, EP groups stay within
  // one TP rank's replicas: {0,2,4,6}, expert DP of size dp/ep = 1.
  const Mesh folded(folding_run(true).strategy), plain(folding_run(false).strategy);
  CHECK(folded.group(0, Dim::kEp) == std::vector<int>{0, 1, 2, 3});
  CHECK(folded.group(5, Dim::kEp) == std::vector<int>{4, 5, 6, 7});
  CHECK(folded.group(0, Dim::kEdp) == std::vector<int>{0, 4});
  CHECK(folded.group(3, Dim::kEdp) == std::vector<int>{3, 7});
  CHECK(folded.coord(6)[Dim::kEp] == 2);
  CHECK(folded.coord(6)[Dim::kEdp] == 1);
  CHECK(folded.group(0, Dim::kDpCp) == std::vector<int>{0, 2, 4, 6});  // the dense layers' DP is unchanged
  CHECK(plain.group(0, Dim::kEp) == std::vector<int>{0, 2, 4, 6});
  CHECK(plain.group(1, Dim::kEp) == std::vector<int>{1, 3, 5, 7});
  CHECK(expert_grad_degree(folding_run(true).strategy) == 2);
  CHECK(expert_grad_degree(folding_run(false).strategy) == 1);
}

TEST_CASE("folded experts are whole: twice the parameters, half the rows of tp 2", "[model][expert_tp]") {
  const RunSpec folded = folding_run(true), plain = folding_run(false);
  // 2 local experts x 2 matrices (not gated) x h 256 x width: 1024 whole, 512 split over tp 2.
  CHECK(device_params(folded.model, {0}, false, false, 2, 4, 1).moe_experts == 2 * 2 * 256 * 1024);
  CHECK(device_params(plain.model, {0}, false, false, 2, 4, 2).moe_experts == 2 * 2 * 256 * 512);
  CHECK(device_params(plain.model, {0}, false, false, 2, 4).moe_experts == 2 * 2 * 256 * 512);  // 0: as tp
  // Rows per local expert: tokens routed x top 2 x ep 4 / 8 experts. Folded, each rank routes its
  // sequence-parallel 256 tokens (256 rows); split over tp, the TP pair's gathered 512 (512 rows).
  const Shard f = shard_of(folded), p = shard_of(plain);
  CHECK(expert_input_tokens(f) == 256);
  CHECK(expert_input_tokens(p) == 512);
  CHECK(tokens_per_local_expert(folded.model, f) == 256);
  CHECK(tokens_per_local_expert(plain.model, p) == 512);
  CHECK(expert_width(folded.model, f) == 1024);
  CHECK(expert_width(plain.model, p) == 512);
  // A Shard built by hand keeps the experts split as tp unless it names an expert degree.
  Shard by_hand;
  by_hand.tp = 2;
  CHECK_FALSE(experts_fold_tp(by_hand));
  CHECK(expert_width(folded.model, by_hand) == 512);
  // The same expert FLOPs per device either way (rows x width): folding moves the split from the
  // width to the rows.
  CHECK(tokens_per_local_expert(folded.model, f) * expert_width(folded.model, f) ==
        tokens_per_local_expert(plain.model, p) * expert_width(plain.model, p));
}

TEST_CASE("the distributed optimizer shards folded experts over their expert data-parallel group", "[model][expert_tp]") {
  // ZeRO-1: dense parameters over dp 4, the experts over tp x dp / ep = 8 / 4 = 2 ranks.
  RunSpec run = folding_run(true);
  run.strategy.zero_stage = 1;
  const ParamCount held = device_params(run.model, {0, 1}, true, true, 2, 4, 1);
  const double total = static_cast<double>(held.total()), expert = static_cast<double>(held.expert());
  CHECK(zero_shard_fraction(held, run.strategy) == Approx(((total - expert) / 4 + expert / 2) / total));
}

TEST_CASE("the folded MoE block has no TP collectives; attention keeps them", "[graph][expert_tp]") {
  const StageGraph folded = build_stage_graph(folding_run(true), 0), plain = build_stage_graph(folding_run(false), 0);
  // Per layer and micro-batch the SP attention has an all-gather and a reduce-scatter forward, and a
  // reduce-scatter, all-gather and input re-gather backward: 5 tasks, 2 layers x 2 micro-batches. The
  // MoE block split over tp has the same again.
  CHECK(layer_tasks_labelled(folded, "tp.") == 5 * 2 * 2);
  CHECK(layer_tasks_labelled(plain, "tp.") == 2 * 5 * 2 * 2);
  CHECK(layer_tasks_labelled(folded, "ep.") == layer_tasks_labelled(plain, "ep."));
}

TEST_CASE("folded experts' shared expert keeps its TP collectives, around its own GEMMs", "[graph][expert_tp]") {
  RunSpec run = folding_run(true);
  run.model.moe.shared_experts = 1;
  const StageGraph g = build_stage_graph(run, 0);
  // Attention's 5 TP collectives per layer and micro-batch, and the shared expert's 5 (a dense SP MLP:
  // all-gather and reduce-scatter forward, reduce-scatter, all-gather and input re-gather backward).
  CHECK(layer_tasks_labelled(g, "tp.") == 2 * 5 * 2 * 2);
  // The forward's gather comes after the routed experts' combine, right before the shared fc1: between the
  // combine and the shared expert's first GEMM there is one all-gather per layer and micro-batch, and the
  // router sees no gathered tokens (no TP collective between the MoE norm and the dispatch).
  int gathers_before_shared = 0, tp_before_dispatch = 0;
  bool after_combine = false, in_moe = false;
  for (size_t id = 0; id < g.size(); ++id) {
    const Task& t = g.task(static_cast<TaskId>(id));
    if (t.layer < 0 || t.role != TaskRole::kForward) continue;
    const std::string& name = g.label_text(t.label);
    if (name == "moe_norm.fwd") in_moe = true;
    if (name == "ep.dispatch") in_moe = false;
    if (in_moe && name.rfind("tp.", 0) == 0) ++tp_before_dispatch;
    if (name == "ep.combine") after_combine = true;
    if (after_combine && name == "tp.all_gather") ++gathers_before_shared;
    if (name.rfind("moe_shared_fc1", 0) == 0) after_combine = false;
  }
  CHECK(gathers_before_shared == 2 * 2);
  CHECK(tp_before_dispatch == 0);
  // Its parameters are the dense ones (over dp), split over tp as in the unfolded run.
  const ParamCount folded = layer_params_on_device(run.model, 0, run.strategy);
  RunSpec plain_run = folding_run(false);
  plain_run.model.moe.shared_experts = 1;
  CHECK(folded.moe_shared == layer_params_on_device(plain_run.model, 0, plain_run.strategy).moe_shared);
  CHECK(folded.moe_shared == 2 * 256 * (1024 / 2));  // GPT style, not gated: 2 matrices of h 256 x 1024/tp
}

TEST_CASE("folded experts hold half the expert rows' activations", "[analytic][expert_tp]") {
  const DeviceMemory folded = stage_memory(folding_run(true)).front(), plain = stage_memory(folding_run(false)).front();
  CHECK(folded.activations < plain.activations);
  CHECK(folded.weights > plain.weights);
}

TEST_CASE("the replay of folded experts and the formulas agree", "[graph][expert_tp]") {
  // Folded, also with 20 us per host launch: the formulas then count no TP launches in the MoE block, as
  // the graph issues none.
  // And folded with a shared expert, whose TP collectives both count.
  struct Case {
    bool folded;
    double launch;
    int shared;
  };
  for (const Case c : {Case{true, 0.0, 0}, {true, 20e-6, 0}, {false, 0.0, 0}, {true, 0.0, 1}, {true, 20e-6, 1}}) {
    INFO("folded " << c.folded << " launch " << c.launch << " shared " << c.shared);
    RunSpec run = folding_run(c.folded);
    run.framework.host.launch = c.launch;
    run.model.moe.shared_experts = c.shared;
    const double formula = estimate_iteration(extract_iteration_inputs(run), IterationTheta{}).iteration_time;
    CHECK(formula == Approx(test::replayed_iteration(run, build_run_graph(run))).epsilon(0.03));  // the formulas' held-out target (issue 13)
  }
}
