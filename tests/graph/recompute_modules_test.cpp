// Per-layer variants of a layer's blocks: selective recompute by module (strategy.recompute_modules,
// Megatron-Core --recompute-modules), where the graph re-runs exactly the forward kernels each module
// picks before the block's backward; and sliding-window attention on some layers. The iteration
// formulas charge the same seconds as the graph.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "sim/analytic/compute_time.hpp"
#include "sim/analytic/pass_times.hpp"
#include "sim/analytic/stage_compute.hpp"
#include "sim/graph/builder.hpp"
#include "sim/model/attention_ops.hpp"
#include "sim/model/mlp_ops.hpp"
#include "sim/model/moe_ops.hpp"
#include "sim/strategy/stage_layout.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

namespace {

// One device, one MoE layer (4 experts, top 2, expert width 1024, h 256), one micro-batch of 512
// tokens; or the same as a dense layer with tp 2 (the MLP's collectives are then visible).
RunSpec modules_run(bool moe, int tp, RecomputeModules modules) {
  ModelSpec m = test::gpt_model(1, 256, 4, 1000);
  if (moe) m.moe.experts = 4, m.moe.top_k = 2, m.moe.expert_ffn_hidden = 1024;
  RunSpec run = test::gpt_run(m, tp, 1, 1, 512, 1, 1);
  run.strategy.recompute = Recompute::kSelective;
  run.strategy.recompute_modules = modules;
  return run;
}

// Recompute-role tasks of the graph: compute tasks by label, collectives counted apart.
struct Redone {
  std::map<std::string, double> compute;  // label -> duration
  int collectives = 0;
  double seconds = 0;
};

Redone redone(const RunSpec& run) {
  const StageGraph g = build_stage_graph(run, 0);
  Redone r;
  for (size_t id = 0; id < g.size(); ++id) {
    const Task& t = g.task(static_cast<TaskId>(id));
    if (t.role != TaskRole::kRecompute) continue;
    if (t.kind == TaskKind::kCollective) {
      ++r.collectives;
    } else {
      r.compute[g.label_text(t.label)] = t.duration;
      r.seconds += t.duration;
    }
  }
  return r;
}

double formula_recompute(const RunSpec& run) {
  return stage_compute(run, block_times(run), stage_chunks(pipeline_split(run), 0)).recompute;
}

}  // namespace

TEST_CASE("layernorm and moe_act re-run the MoE norm and the experts' activation, nothing else", "[graph][recompute]") {
  RecomputeModules modules;
  modules.core_attn = false;
  modules.layernorm = true;
  modules.moe_act = true;
  const RunSpec run = modules_run(true, 1, modules);
  const Redone r = redone(run);
  const Shard sh = shard_of(run);
  const AcceleratorSpec& acc = run.platform.accelerator;
  const double norm = kernel_time(test::find_kernel(moe_forward(run.model, sh), "moe_norm.fwd"), acc);
  const double act = kernel_time(test::find_kernel(moe_forward(run.model, sh), "moe_expert_act.fwd"), acc);
  CHECK(r.compute == std::map<std::string, double>{{"moe_norm.fwd", norm}, {"moe_expert_act.fwd", act}});
  CHECK(r.collectives == 0);  // no second dispatch
  CHECK(formula_recompute(run) == Approx(norm + act));
  // Each module alone re-runs its own kernel.
  modules.moe_act = false;
  CHECK(redone(modules_run(true, 1, modules)).compute == std::map<std::string, double>{{"moe_norm.fwd", norm}});
  // The default module (core_attn) re-runs nothing with fused attention.
  CHECK(redone(modules_run(true, 1, RecomputeModules{})).compute.empty());
}

TEST_CASE("the mlp module re-runs a dense MLP block with its TP all-reduce, not its residual add", "[graph][recompute]") {
  RecomputeModules modules;
  modules.core_attn = false;
  modules.mlp = true;
  const RunSpec run = modules_run(false, 2, modules);
  const Redone r = redone(run);
  // GPT MLP forward: norm, fc1, GeLU, fc2, residual add; all but the residual add again, and the
  // one forward all-reduce after fc2 (tp 2, no SP).
  double expected = 0;
  for (const char* name : {"mlp_norm.fwd", "mlp_fc1.fwd", "mlp_act.fwd", "mlp_fc2.fwd"}) {
    const double time = kernel_time(test::find_kernel(mlp_forward(run.model, shard_of(run)), name), run.platform.accelerator);
    CHECK(r.compute.at(name) == time);
    expected += time;
  }
  CHECK(r.compute.size() == 4);
  CHECK(r.collectives == 1);
  CHECK(formula_recompute(run) == Approx(expected));
  // On an MoE layer the module has no dense MLP to re-run.
  CHECK(redone(modules_run(true, 1, modules)).compute.empty());
}

TEST_CASE("sliding-window layers run the windowed attention kernel; every k-th layer the full one", "[graph][window]") {
  // 4 layers, window 128, full_attention_every 2: layers 0 and 2 windowed, 1 and 3 full (GPT-OSS's
  // alternation). seq 8192: the windowed kernel visits 256 keys per query against the full 4,096, and
  // is bound by its memory traffic where the full one is bound by its FLOPs.
  ModelSpec m = test::gpt_model(4, 256, 4, 1000);
  m.sliding_window = 128;
  m.full_attention_every = 2;
  const RunSpec run = test::gpt_run(m, 1, 1, 1, 8192, 1, 1);
  const StageGraph g = build_stage_graph(run, 0);
  Shard windowed = shard_of(run);
  windowed.window = 128;
  const double full_time = kernel_time(core_attention_kernel(m, shard_of(run), false), run.platform.accelerator);
  const double window_time = kernel_time(core_attention_kernel(m, windowed, false), run.platform.accelerator);
  REQUIRE(window_time < full_time);
  std::map<int, double> per_layer;
  double forward = 0;
  for (size_t id = 0; id < g.size(); ++id) {
    const Task& t = g.task(static_cast<TaskId>(id));
    if (t.role == TaskRole::kForward && t.kind == TaskKind::kCompute) forward += t.duration;
    if (g.label_text(t.label) == "core_attention.fwd") per_layer[t.layer] = t.duration;
  }
  CHECK(per_layer == std::map<int, double>{{0, window_time}, {1, full_time}, {2, window_time}, {3, full_time}});
  // The formulas walk the same layers: the stage's forward seconds match the graph's.
  CHECK(stage_compute(run, block_times(run), stage_chunks(pipeline_split(run), 0)).forward == Approx(forward));
}
