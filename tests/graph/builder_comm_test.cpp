// Communication each device issues per iteration, against the closed forms (formulas.md 5-8).
#include <catch2/catch.hpp>

#include "sim/graph/builder.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;
using namespace trainsim::test;

namespace {

struct Volume {
  int count = 0;
  double bytes = 0;
};

Volume tasks_of(const StageGraph& g, Stream stream, CollectiveKind kind, TaskKind task_kind = TaskKind::kCollective) {
  Volume v;
  for (size_t t = 0; t < g.size(); ++t) {
    const Task& task = g.task(static_cast<TaskId>(t));
    if (task.stream != stream || task.kind != task_kind) continue;
    if (task_kind == TaskKind::kCollective && task.collective != kind) continue;
    v.count++;
    v.bytes += task.bytes;
  }
  return v;
}

// l = 6 over pp = 3 → 2 layers per stage; stage 1 has neither embedding nor output layer.
// b = 2, s = 128, h = 256: one activation b*s*h*2 bytes = 131072 bytes. m = 24/(2*2) = 6.
const ModelSpec kModel = gpt_model(6, 256, 4, 1024);
constexpr double kActivation = 2.0 * 128 * 256 * 2;
constexpr int kM = 6, kLayersPerStage = 2;

}  // namespace

TEST_CASE("TP issues 4 all-reduces of b*s*h per layer per micro-batch", "[graph]") {
  const RunSpec run = gpt_run(kModel, 2, 3, 2, 128, 24, 2);
  const Volume ar = tasks_of(build_stage_graph(run, 1), Stream::kTp, CollectiveKind::kAllReduce);
  CHECK(ar.count == 4 * kLayersPerStage * kM);
  CHECK(ar.bytes == Approx(4 * kLayersPerStage * kM * kActivation));
}

TEST_CASE("full recompute re-runs the 2 forward all-reduces of each layer", "[graph]") {
  RunSpec run = gpt_run(kModel, 2, 3, 2, 128, 24, 2);
  run.strategy.recompute = Recompute::kFull;
  CHECK(tasks_of(build_stage_graph(run, 1), Stream::kTp, CollectiveKind::kAllReduce).count == 6 * kLayersPerStage * kM);
}

TEST_CASE("sequence parallelism replaces each all-reduce by a reduce-scatter and an all-gather", "[graph]") {
  // Same bytes on the wire: an all-reduce moves 2(t-1)/t of the buffer, RS and AG (t-1)/t each.
  // On top, Megatron's backward re-gathers the sequence-sharded input of each block's first
  // (column-parallel) GEMM for its weight gradient: 2 more all-gathers per layer (attention, MLP).
  RunSpec run = gpt_run(kModel, 2, 3, 2, 128, 24, 2);
  run.strategy.sequence_parallel = true;
  const StageGraph g = build_stage_graph(run, 1);
  CHECK(tasks_of(g, Stream::kTp, CollectiveKind::kAllReduce).count == 0);
  CHECK(tasks_of(g, Stream::kTp, CollectiveKind::kReduceScatter).count == 4 * kLayersPerStage * kM);
  CHECK(tasks_of(g, Stream::kTp, CollectiveKind::kAllGather).count == (4 + 2) * kLayersPerStage * kM);
}

TEST_CASE("selective recompute re-runs unfused attention's core before its backward", "[graph]") {
  // Unfused attention: scores, softmax, context = 3 forward kernels per layer, and dropout a 4th
  // when the run has attention dropout, run once more (role recompute) per layer and micro-batch.
  // Flash attention recomputes inside its own backward kernel, so nothing is added.
  RunSpec run = gpt_run(kModel, 2, 3, 2, 128, 24, 2);
  run.strategy.recompute = Recompute::kSelective;
  auto recomputed = [&](bool flash, double attention_dropout) {
    run.flash_attention = flash;
    run.dropout.attention = attention_dropout;
    const StageGraph g = build_stage_graph(run, 1);
    int n = 0;
    for (size_t t = 0; t < g.size(); ++t) n += g.task(static_cast<TaskId>(t)).role == TaskRole::kRecompute;
    return n;
  };
  CHECK(recomputed(false, 0.1) == 4 * kLayersPerStage * kM);
  CHECK(recomputed(false, 0) == 3 * kLayersPerStage * kM);
  CHECK(recomputed(true, 0.1) == 0);
}

TEST_CASE("DP reduces every gradient of the stage exactly once", "[graph]") {
  // Ring all-reduce traffic is then 2(d-1)/d of the gradient bytes. These runs are bf16, whose
  // gradients Megatron-LM reduces in fp32: 4 bytes per parameter.
  const RunSpec run = gpt_run(kModel, 2, 3, 2, 128, 24, 2);
  for (int stage = 0; stage < 3; ++stage) {
    const Volume dp = tasks_of(build_stage_graph(run, stage), Stream::kDp, CollectiveKind::kAllReduce);
    CHECK(dp.bytes == Approx(4.0 * static_cast<double>(stage_params(run, stage).total())));
  }
}

TEST_CASE("strategy.grad_precision sets the bytes of the DP gradient reduction", "[graph]") {
  // The same bf16 run reduces 4 bytes per parameter by default (fp32, Megatron-LM), 2 with
  // grad_precision bf16 (Megatron's --grad-reduce-in-bf16), 4 again when fp32 is asked for.
  RunSpec run = gpt_run(kModel, 2, 3, 2, 128, 24, 2);
  const double params = static_cast<double>(stage_params(run, 1).total());
  run.strategy.grad_precision = Precision::kBf16;
  CHECK(tasks_of(build_stage_graph(run, 1), Stream::kDp, CollectiveKind::kAllReduce).bytes == Approx(2.0 * params));
  run.strategy.grad_precision = Precision::kFp32;
  CHECK(tasks_of(build_stage_graph(run, 1), Stream::kDp, CollectiveKind::kAllReduce).bytes == Approx(4.0 * params));
  run.precision = Precision::kFp16;  // auto follows an fp16 run's own precision: 2 bytes
  run.strategy.grad_precision = std::nullopt;
  CHECK(tasks_of(build_stage_graph(run, 1), Stream::kDp, CollectiveKind::kAllReduce).bytes == Approx(2.0 * params));
}

TEST_CASE("PP sends one activation forward and one gradient back per micro-batch", "[graph]") {
  // Megatron scatter/gather: each TP rank sends b*s*h/t.
  const RunSpec run = gpt_run(kModel, 2, 3, 2, 128, 24, 2);
  const StageGraph g = build_stage_graph(run, 1);
  const Volume sends = tasks_of(g, Stream::kPpSend, CollectiveKind::kAllReduce, TaskKind::kSend);
  const Volume recvs = tasks_of(g, Stream::kPpRecv, CollectiveKind::kAllReduce, TaskKind::kRecv);
  CHECK(sends.count == 2 * kM);
  CHECK(recvs.count == 2 * kM);
  CHECK(sends.bytes == Approx(2 * kM * kActivation / 2));
}

TEST_CASE("ZeRO-1 reduce-scatters gradients and gathers parameters once", "[graph]") {
  // fp32 gradients (4 bytes per parameter) are reduce-scattered; bf16 parameters (2 bytes) gathered.
  RunSpec run = gpt_run(kModel, 2, 3, 2, 128, 24, 2);
  run.strategy.zero_stage = 1;
  const StageGraph g = build_stage_graph(run, 1);
  CHECK(tasks_of(g, Stream::kDp, CollectiveKind::kReduceScatter).bytes == Approx(4.0 * stage_params(run, 1).total()));
  CHECK(tasks_of(g, Stream::kDp, CollectiveKind::kAllGather).bytes == Approx(2.0 * stage_params(run, 1).total()));
  CHECK(tasks_of(g, Stream::kDp, CollectiveKind::kAllReduce).count == 0);
}

TEST_CASE("CP gathers K/V of the whole context once forward and once backward per layer", "[graph]") {
  // cp = 2, MHA with a = 4 heads of d = 64 over tp = 2: 2 local kv heads. K and V of the full
  // context: 2 * b * s * 2 * 64 * 2 bytes = 2 * 2 * 128 * 2 * 64 * 2 = 131072 bytes.
  RunSpec run = gpt_run(kModel, 2, 3, 2, 128, 24, 2);
  run.strategy.cp = 2;
  run.strategy.dp = 1;
  run.global_batch = 12;
  run.devices = 12;
  const StageGraph g = build_stage_graph(run, 1);
  const Volume ag = tasks_of(g, Stream::kCp, CollectiveKind::kAllGather);
  CHECK(ag.count == 2 * kLayersPerStage * kM);
  CHECK(ag.bytes / ag.count == Approx(2.0 * 2 * 128 * 2 * 64 * 2));
  CHECK(tasks_of(g, Stream::kCp, CollectiveKind::kReduceScatter).count == kLayersPerStage * kM);
}

TEST_CASE("EP dispatches and combines tokens with 2 all-to-alls forward and 2 backward per MoE layer", "[graph]") {
  // 8 experts top-2, capacity factor 1, ep = 2 (carved from dp = 2), tp = 1: each device sends
  // its b*s tokens top_k times: 2 * 128 * 2 * 256 * 2 bytes = 262144 bytes per all-to-all.
  RunSpec run = gpt_run(gpt_moe_model(), 1, 3, 2, 128, 24, 2);
  run.strategy.ep = 2;
  const StageGraph g = build_stage_graph(run, 1);
  const Volume a2a = tasks_of(g, Stream::kEp, CollectiveKind::kAllToAll);
  CHECK(a2a.count == 4 * kLayersPerStage * kM);
  CHECK(a2a.bytes / a2a.count == Approx(2.0 * 128 * 2 * 256 * 2));
}

namespace {

// DP-stream collectives of one kind whose group is `dim`.
Volume dp_tasks_on(const StageGraph& g, CollectiveKind kind, Dim dim) {
  Volume v;
  for (size_t t = 0; t < g.size(); ++t) {
    const Task& task = g.task(static_cast<TaskId>(t));
    if (task.stream != Stream::kDp || task.kind != TaskKind::kCollective || task.collective != kind) continue;
    if (task.group != dim) continue;
    v.count++;
    v.bytes += task.bytes;
  }
  return v;
}

RunSpec expert_run(int dp, int ep) {
  RunSpec run = gpt_run(gpt_moe_model(), 1, 3, dp, 128, 24, 2);
  run.strategy.ep = ep;
  run.strategy.zero_stage = 1;
  return run;
}

}  // namespace

TEST_CASE("with ep > 1 the routed experts' gradients go over the expert data-parallel group", "[graph]") {
  // dp 4, ep 2: each EP rank holds 8/2 = 4 experts of 2 matrices 256 x 512 per MoE layer, shared with
  // the one other rank of its expert data-parallel group (cp*dp/ep = 2). Stage 1's 2 layers hold
  // 2 * 4 * 2 * 256 * 512 = 2,097,152 expert parameters: their fp32 gradients (4 bytes) are
  // reduce-scattered and their bf16 weights (2 bytes) gathered over that group, everything else over
  // dp x cp (here dp: cp 1).
  const double experts = 2.0 * 4 * 2 * 256 * 512;
  const RunSpec run = expert_run(4, 2);
  const double all = static_cast<double>(stage_params(run, 1).total());
  const StageGraph g = build_stage_graph(run, 1);
  CHECK(dp_tasks_on(g, CollectiveKind::kReduceScatter, Dim::kEdp).bytes == Approx(4.0 * experts));
  CHECK(dp_tasks_on(g, CollectiveKind::kReduceScatter, Dim::kDpCp).bytes == Approx(4.0 * (all - experts)));
  CHECK(dp_tasks_on(g, CollectiveKind::kAllGather, Dim::kEdp).bytes == Approx(2.0 * experts));
  CHECK(dp_tasks_on(g, CollectiveKind::kAllGather, Dim::kDpCp).bytes == Approx(2.0 * (all - experts)));
  // ep = dp: no two ranks hold the same experts, so nothing of theirs is reduced or gathered.
  const RunSpec own = expert_run(4, 4);
  const double own_all = static_cast<double>(stage_params(own, 1).total());
  const double own_experts = 2.0 * 2 * 2 * 256 * 512;  // 8/4 = 2 experts per rank
  const StageGraph h = build_stage_graph(own, 1);
  CHECK(dp_tasks_on(h, CollectiveKind::kReduceScatter, Dim::kEdp).count == 0);
  CHECK(dp_tasks_on(h, CollectiveKind::kAllGather, Dim::kEdp).count == 0);
  CHECK(dp_tasks_on(h, CollectiveKind::kReduceScatter, Dim::kDpCp).bytes == Approx(4.0 * (own_all - own_experts)));
  // ep 1: the experts are replicated like every other parameter and reduced over dp with them.
  const RunSpec plain = expert_run(4, 1);
  const StageGraph p = build_stage_graph(plain, 1);
  CHECK(dp_tasks_on(p, CollectiveKind::kReduceScatter, Dim::kEdp).count == 0);
  CHECK(dp_tasks_on(p, CollectiveKind::kReduceScatter, Dim::kDpCp).bytes ==
        Approx(4.0 * static_cast<double>(stage_params(plain, 1).total())));
}

TEST_CASE("context-parallel ranks hold the same weights, so gradients are reduced over dp x cp", "[graph]") {
  // tp 1, pp 3, dp 1, cp 2: no data parallelism, yet the 2 CP ranks of each stage computed gradients
  // of the same parameters from different halves of the sequence: Megatron-Core reduces them over
  // the data-parallel group with CP (2 ranks), fp32 (4 bytes per parameter), all-reduce at ZeRO 0.
  RunSpec run = gpt_run(kModel, 1, 3, 1, 128, 24, 2);
  run.strategy.cp = 2;
  run.devices = 6;
  const StageGraph g = build_stage_graph(run, 1);
  const Volume dp = dp_tasks_on(g, CollectiveKind::kAllReduce, Dim::kDpCp);
  CHECK(dp.bytes == Approx(4.0 * static_cast<double>(stage_params(run, 1).total())));
  run.strategy.cp = 1;
  run.devices = 3;
  CHECK(dp_tasks_on(build_stage_graph(run, 1), CollectiveKind::kAllReduce, Dim::kDpCp).count == 0);
}

TEST_CASE("ZeRO-3 gathers and reduce-scatters a layer's experts over their group and the rest over dp x cp",
          "[graph]") {
  // expert_run's stage 1 (2 MoE layers), dp 4, ep 2: every per-layer collective is split as the layer's
  // parameters are, so over the whole stage the experts' share of the bytes is theirs of the parameters:
  // 2 * 4 * 2 * 256 * 512 of stage_params.
  RunSpec run = expert_run(4, 2);
  run.strategy.zero_stage = 3;
  const double experts = 2.0 * 4 * 2 * 256 * 512;
  const double dense = static_cast<double>(stage_params(run, 1).total()) - experts;
  const StageGraph g = build_stage_graph(run, 1);
  for (CollectiveKind kind : {CollectiveKind::kAllGather, CollectiveKind::kReduceScatter}) {
    const Volume e = dp_tasks_on(g, kind, Dim::kEdp), d = dp_tasks_on(g, kind, Dim::kDpCp);
    REQUIRE(e.count > 0);
    CHECK(e.count == d.count);  // one of each per layer and use
    CHECK(e.bytes / d.bytes == Approx(experts / dense));
  }
  run.strategy.ep = 4;  // alone with its experts: only the dense part is gathered
  CHECK(dp_tasks_on(build_stage_graph(run, 1), CollectiveKind::kAllGather, Dim::kEdp).count == 0);
}

TEST_CASE("ZeRO-1's overlapped parameter gathers use the gradient buckets' boundaries", "[graph]") {
  // Megatron-Core cuts its parameter and gradient buffers into the same buckets, counted in parameters:
  // a bucket of grad_bucket_size bytes of fp32 gradients holds grad_bucket_size / 4 parameters, which
  // the gathers move as bf16. Stage 1 holds 2 equal layers; a bucket of exactly one layer's gradients
  // gives 2 reduce-scatters and 2 gathers of one layer each (cut at grad_bucket_size / 2 bf16 bytes, the
  // gathers would hold both layers in one).
  RunSpec run = gpt_run(kModel, 2, 3, 2, 128, 24, 2);
  run.strategy.zero_stage = 1;
  run.strategy.overlap.zero_param_gather = true;
  const double layer = static_cast<double>(stage_params(run, 1).total()) / kLayersPerStage;
  run.strategy.grad_bucket_size = 4.0 * layer;
  const StageGraph g = build_stage_graph(run, 1);
  const Volume rs = tasks_of(g, Stream::kDp, CollectiveKind::kReduceScatter);
  const Volume ag = tasks_of(g, Stream::kDp, CollectiveKind::kAllGather);
  CHECK(rs.count == kLayersPerStage);
  CHECK(ag.count == kLayersPerStage);
  CHECK(ag.bytes / ag.count == Approx(2.0 * layer));
}
