// Tensor parallelism around multi-head latent attention (sim/model/mla_ops.hpp): under sequence
// parallelism the attention block's all-gather, the backward's re-gather and the reduce-scatter of its
// input gradient carry the latents (q_lora_rank + kv_lora_rank + qk_pos_emb_head_dim per token), the
// output projection's collectives the hidden width, and the down-projections run before the gather.
#include <catch2/catch.hpp>

#include <map>
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

namespace mla_tp_test {

// h 256, 8 heads; latents 64 (queries) and 32 (keys/values), per head 16 + 8 rotary and 16 for values.
// One layer, tp 2 with SP, one micro-batch of 64 tokens in bf16: a hidden-wide tensor is 64 x 256 x 2 =
// 32,768 B, the latents 64 x (64 + 32 + 8) x 2 = 13,312 B.
constexpr double kHiddenBytes = 64.0 * 256 * 2, kLatentBytes = 64.0 * 104 * 2;

RunSpec mla_run() {
  ModelSpec m = gpt_model(1, 256, 8, 1000);
  m.mla = {64, 32, 16, 8, 16};
  m.head_dim = 24;
  RunSpec run = gpt_run(m, 2, 1, 1, 64, 1, 1);
  run.strategy.sequence_parallel = true;
  run.strategy.overlap.tp_comm = false;
  return run;
}

// TP collectives of layer 0, keyed by label and pass, with their bytes in order.
std::map<std::string, std::vector<double>> tp_collectives(const StageGraph& g) {
  std::map<std::string, std::vector<double>> out;
  for (TaskId id = 0; id < g.size(); ++id) {
    const Task& t = g.task(id);
    const std::string label = g.label_text(t.label);
    if (t.layer != 0 || label.rfind("tp.", 0) != 0) continue;
    out[label + (t.role == TaskRole::kBackward ? " bwd" : " fwd")].push_back(t.bytes);
  }
  return out;
}

TaskId task_named(const StageGraph& g, const std::string& label) {
  for (TaskId id = 0; id < g.size(); ++id)
    if (g.label_text(g.task(id).label) == label) return id;
  FAIL("no task " << label);
  return 0;
}

}  // namespace mla_tp_test

using namespace mla_tp_test;

TEST_CASE("MLA under SP: the attention block gathers and reduces its latents, the projection its hidden width",
          "[graph][mla]") {
  const StageGraph g = build_stage_graph(mla_run(), 0);
  const auto c = tp_collectives(g);
  // Forward: attention's gather (latents), its projection's reduce-scatter, then the FFN's two (hidden).
  CHECK(c.at("tp.all_gather fwd") == std::vector<double>{kLatentBytes, kHiddenBytes});
  CHECK(c.at("tp.reduce_scatter fwd") == std::vector<double>{kHiddenBytes, kHiddenBytes});
  // Backward (FFN first): each block gathers its output gradient (hidden), re-gathers its input and
  // reduce-scatters that input's gradient (the latents for attention).
  CHECK(c.at("tp.all_gather bwd") == std::vector<double>{kHiddenBytes, kHiddenBytes});
  CHECK(c.at("tp.regather_input bwd") == std::vector<double>{kHiddenBytes, kLatentBytes});
  CHECK(c.at("tp.reduce_scatter bwd") == std::vector<double>{kHiddenBytes, kLatentBytes});
  // The gather sits between the down-projections and the up-projections.
  const std::vector<std::string> before_up = predecessor_labels(g, task_named(g, "q_up_proj.fwd"));
  CHECK(std::find(before_up.begin(), before_up.end(), "tp.all_gather") != before_up.end());
  const std::vector<std::string> before_down = predecessor_labels(g, task_named(g, "q_down_proj.fwd"));
  CHECK(std::find(before_down.begin(), before_down.end(), "tp.all_gather") == before_down.end());
}

TEST_CASE("MLA under SP: the formulas' exposed TP time equals the replay's (without overlap only the re-gather hides)",
          "[graph][replay][analytic][mla]") {
  const RunSpec run = mla_run();
  const std::string out = call_in_child([&] {
    const Timeline t = replay(run, build_run_graph(run), Mesh(run.strategy), ReplayOptions{});
    std::ostringstream s;
    s.precision(17);
    s << t.devices[0].time[static_cast<size_t>(TimeCategory::kExposedTp)];
    return s.str();
  });
  const double replayed = std::stod(out);
  const StageInputs in = extract_iteration_inputs(run).stages[0];
  CHECK(replayed > 0);
  INFO("exposed " << in.tp_exposed << " hidden " << in.tp_hidden);
  CHECK(in.tp_exposed == Approx(replayed).epsilon(1e-6));
}
