// Multi-token prediction (sim/model/mtp_ops.hpp, sim/graph/layer_tasks.cpp): the module runs on the last
// stage after the last layer, with its own embedding, projection, layer and output head; its embedding
// copy's gradient is exchanged with the first stage; parameters, FLOPs and memory worked by hand.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "sim/analytic/activation_memory.hpp"
#include "sim/analytic/iteration_inputs.hpp"
#include "sim/graph/builder.hpp"
#include "sim/model/model_flops.hpp"
#include "sim/model/mtp_ops.hpp"
#include "sim/model/params.hpp"
#include "sim/report/metrics.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;
using namespace trainsim::test;

namespace mtp_test {

// Four layers of h 256 (4 heads, FFN 1024, LayerNorm), vocabulary 1000, untied; one MTP module; pp 2 of
// tp 1, two micro-batches of 64 tokens.
RunSpec mtp_run(int mtp_layers) {
  ModelSpec m = gpt_model(4, 256, 4, 1000);
  m.mtp_layers = mtp_layers;
  return gpt_run(m, 1, 2, 1, 64, 2, 1);
}

std::map<std::string, int> forward_counts(const StageGraph& g) {
  std::map<std::string, int> n;
  for (TaskId id = 0; id < g.size(); ++id)
    if (g.task(id).role == TaskRole::kForward) ++n[g.label_text(g.task(id).label)];
  return n;
}

int count_of(const StageGraph& g, const std::string& label) {
  int n = 0;
  for (TaskId id = 0; id < g.size(); ++id) n += g.label_text(g.task(id).label) == label;
  return n;
}

// Seconds of the stage's forward compute tasks per micro-batch.
double forward_seconds(const StageGraph& g, int microbatches) {
  double t = 0;
  for (TaskId id = 0; id < g.size(); ++id)
    if (g.task(id).role == TaskRole::kForward && g.task(id).kind == TaskKind::kCompute) t += g.task(id).duration;
  return t / microbatches;
}

}  // namespace mtp_test

using namespace mtp_test;

TEST_CASE("MTP runs on the last stage: one more embedding, projection, layer and output head per micro-batch",
          "[graph][mtp]") {
  const StageGraph first = build_stage_graph(mtp_run(1), 0), last = build_stage_graph(mtp_run(1), 1);
  const std::map<std::string, int> f = forward_counts(first), l = forward_counts(last);
  // Two micro-batches. Stage 0: the embedding and layers 0-1. Stage 1: layers 2-3, then the module's
  // embedding, projection and layer 4, and two output heads (the model's and the module's).
  CHECK(f.at("embedding.fwd") == 2);
  CHECK(f.count("mtp_eh_proj.fwd") == 0);
  CHECK(f.count("logits.fwd") == 0);
  CHECK(l.at("embedding.fwd") == 2);
  CHECK(l.at("mtp_eh_proj.fwd") == 2);
  CHECK(l.at("logits.fwd") == 4);
  CHECK(l.at("qkv_proj.fwd") == 2 * 3);
  // The module's embedding copy on the last stage sums its gradient with the first stage's table, as
  // tied embeddings do; without MTP an untied model exchanges nothing.
  CHECK(count_of(first, "tied_embedding.grad_send") == 1);
  CHECK(count_of(last, "tied_embedding.grad_send") == 1);
  CHECK(count_of(build_stage_graph(mtp_run(0), 1), "tied_embedding.grad_send") == 0);
}

TEST_CASE("the formulas' last-stage forward includes the MTP module as the graph runs it", "[graph][analytic][mtp]") {
  const RunSpec run = mtp_run(1);
  const StageInputs in = extract_iteration_inputs(run).stages[1];
  CHECK(in.forward == Approx(forward_seconds(build_stage_graph(run, 1), 2)).epsilon(1e-9));
  CHECK(in.forward > extract_iteration_inputs(mtp_run(0)).stages[1].forward);
}

TEST_CASE("MTP's parameters, FLOPs and saved activations, worked by hand", "[model][mtp]") {
  const ModelSpec m = mtp_run(1).model;
  // One more layer: attention 4 x 256^2 = 262,144, FFN 2 x 256 x 1,024 = 524,288, two LayerNorms 1,024;
  // eh_proj 2 x 256 x 256 = 131,072 and three LayerNorms 1,536: 920,064 beyond the model without MTP.
  ModelSpec plain = m;
  plain.mtp_layers = 0;
  CHECK(count_params(m).total() - count_params(plain).total() == 920064);
  CHECK(mtp_params(m, 1).projection == 131072);
  // The last stage holds the embedding copy the module reads (1,000 x 256), pp 2 and untied.
  CHECK(device_params(m, {2, 3, 4}, false, true, 1, 1).embedding == 256000);
  CHECK(device_params(plain, {2, 3}, false, true, 1, 1).embedding == 0);
  // Megatron-LM's count per token: one more layer 6 x (4 x 256^2 + 64 x 256 + 2 x 256 x 1,024) = 4,816,896
  // at seq 64 (its causal term 6 x q x s), the module's norms and eh_proj 6 x (3 x 256 + 2 x 256^2) = 791,040
  // and one more logits 6 x 256 x 1,000 = 1,536,000: 7,143,936 per token, x 64 tokens = 457,211,904.
  CHECK(megatron_lm_flops(m, 1, 64) - megatron_lm_flops(plain, 1, 64) == Approx(457211904));
  // Saved by the module's projection part per micro-batch of 64 tokens at 2 B: both norm inputs 2 x 64 x
  // 256 x 2 = 65,536 and the 2h-wide concatenation eh_proj reads, 65,536.
  CHECK(mtp_input_activation_bytes(m, shard(1, 64)) == Approx(131072));
  const ActivationOptions opt;
  CHECK(layer_activation_bytes(m, shard(1, 64), 4, opt) ==
        Approx(layer_activation_bytes(m, shard(1, 64), 3, opt) + 131072 + last_stage_activation_bytes(m, shard(1, 64))));
  // Under full recompute a layer keeps its 64 x 256 x 2 = 32,768-byte input; the module's checkpoint keeps
  // its two inputs (65,536) and its output head's tensors, not the concatenation or the layer's input.
  ActivationOptions full;
  full.recompute = Recompute::kFull;
  CHECK(layer_activation_bytes(m, shard(1, 64), 3, full) == Approx(32768));
  CHECK(layer_activation_bytes(m, shard(1, 64), 4, full) == Approx(65536 + last_stage_activation_bytes(m, shard(1, 64))));
}

TEST_CASE("full recompute counts the MTP layer and its projection again in the Narayanan FLOPs", "[report][mtp]") {
  RunSpec full = mtp_run(1);
  full.strategy.recompute = Recompute::kFull;
  RunSpec none = full;
  none.strategy.recompute = Recompute::kNone;
  // Per token, each of the 4 + 1 layers forward: projections 2 x 4h^2 = 524,288, FFN 2 x 2 x h x 4h =
  // 1,048,576, scores and values 2 x s x heads x (d + d) = 2 x 64 x 4 x 128 = 65,536: 1,638,400; five of
  // them 8,192,000 and eh_proj 2 x 2h x h = 262,144: 8,454,144 per token, x 2 sequences of 64 tokens.
  CHECK(narayanan_flops(full) - narayanan_flops(none) == Approx(1082130432.0).epsilon(1e-12));
}
