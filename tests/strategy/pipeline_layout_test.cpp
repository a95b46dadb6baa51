// Megatron-Core's pipeline layout text (sim/strategy/pipeline_layout.hpp): parsed, checked against the
// model, and turned into the chunks each stage holds; every case counted by hand.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "sim/analytic/iteration_inputs.hpp"
#include "sim/graph/builder.hpp"
#include "sim/strategy/pipeline_layout.hpp"
#include "sim/strategy/stage_layout.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

namespace pipeline_layout_test {

std::vector<int> decoders(const PipelineLayout& l) {
  std::vector<int> out;
  for (const LayoutChunk& c : l.chunks) out.push_back(c.decoders);
  return out;
}

}  // namespace pipeline_layout_test

using namespace pipeline_layout_test;

TEST_CASE("a layout expands its groups, then its characters, as Megatron-Core's parser", "[strategy][layout]") {
  // Megatron-Bridge's DeepSeek-V3 layout for pp 4 x vp 4: the embedding and 4 layers, 14 chunks of 4, and
  // 1 layer with the MTP layer and the loss: 4 + 56 + 1 = 61 layers on 16 chunks.
  const PipelineLayout l = parse_pipeline_layout("Et*4|(t*4|)*14tmL");
  REQUIRE(l.error.empty());
  std::vector<int> expected(16, 4);
  expected.back() = 1;
  CHECK(decoders(l) == expected);
  CHECK(l.chunks.front().embedding);
  CHECK(l.chunks.back().loss);
  CHECK(l.chunks.back().mtp == 1);
  CHECK(layout_problem(l, 61, 1, 16).empty());
  // Commas are cosmetic; "(tt|)*2" is "tt|tt|".
  CHECK(decoders(parse_pipeline_layout("Et,|(tt|)*2,L")) == std::vector<int>{1, 2, 2, 0});
}

TEST_CASE("a layout that does not fit the model or the strategy names what is wrong", "[strategy][layout]") {
  CHECK(layout_problem(parse_pipeline_layout("Et*4|(t*4|)*14tmL"), 61, 1, 8) ==
        "has 16 chunks, pp x virtual_stages is 8");
  CHECK(layout_problem(parse_pipeline_layout("Et*4|(t*4|)*14tmL"), 62, 1, 16) == "places 61 layers (t), the model has 62");
  CHECK(layout_problem(parse_pipeline_layout("Et*4|(t*4|)*14tL"), 61, 1, 16) ==
        "places 0 MTP layers (m), the model has 1");
  // Megatron-Core's own example places the MTP layer in a chunk before the loss's: not modelled.
  CHECK(layout_problem(parse_pipeline_layout("Ettt|(tt|)*29,m|L"), 61, 1, 32) ==
        "places MTP layers (m) outside the last chunk; trainsim models them beside the loss only");
  CHECK(layout_problem(parse_pipeline_layout("|EttL"), 2, 0, 2) == "needs the embedding (E) once, in the first chunk");
  CHECK_THAT(parse_pipeline_layout("tE|tL").error, Catch::StartsWith("'E' out of order"));
  CHECK_THAT(parse_pipeline_layout("Et|mtL").error, Catch::StartsWith("'t' out of order"));
  CHECK_THAT(parse_pipeline_layout("Ex|tL").error, Catch::StartsWith("'x' is not a layer character"));
  CHECK(parse_pipeline_layout("E(t|t|L").error == "an opening '(' without its ')'");
  CHECK(parse_pipeline_layout("E(t|)|tL").error == "a group '(t|)' without its '*count'");
  // A '*' needs a count and something before it; a group needs a layer: none is silently dropped.
  const std::string no_count = "a '*' without its count (write x*n or (group)*n with n a whole number)";
  CHECK(parse_pipeline_layout("Et*|tL").error == no_count);
  CHECK(parse_pipeline_layout("Et**2|tL").error == no_count);
  CHECK(parse_pipeline_layout("E(t|)*|tL").error == no_count);
  CHECK(parse_pipeline_layout("*2Et|tL").error == "a '*' after nothing to repeat");
  CHECK(parse_pipeline_layout("Et|()*3tL").error == "an empty group '()'");
}

TEST_CASE("a layout gives each stage its chunks in model-chunk order, the MTP layers after the last chunk's",
          "[strategy][layout]") {
  PipelineSplit split{61, 4, 4};
  split.mtp_layers = 1;
  const PipelineLayout l = parse_pipeline_layout("Et*4|(t*4|)*14tmL");
  for (const LayoutChunk& c : l.chunks) split.chunk_layers.push_back(c.decoders);
  REQUIRE(split_problem(split).empty());
  // Stage 0 holds chunks 0, 4, 8, 12: layers 0-3, 16-19, 32-35, 48-51. Stage 3 holds 3, 7, 11, 15: layers
  // 12-15, 28-31, 44-47, and 60 with the MTP layer 61.
  std::vector<std::pair<int, int>> stage0, stage3;
  for (const ChunkLayers& c : stage_chunks(split, 0)) stage0.push_back({c.first_layer, c.layer_count});
  for (const ChunkLayers& c : stage_chunks(split, 3)) stage3.push_back({c.first_layer, c.layer_count});
  CHECK(stage0 == std::vector<std::pair<int, int>>{{0, 4}, {16, 4}, {32, 4}, {48, 4}});
  CHECK(stage3 == std::vector<std::pair<int, int>>{{12, 4}, {28, 4}, {44, 4}, {60, 2}});
  CHECK(stage_layer_count(split, 0) == 16);
  CHECK(stage_layer_count(split, 3) == 13);  // the MTP layer lies outside the split
  split.first_stage_layers = 16;
  CHECK_THAT(split_problem(split), Catch::StartsWith("pipeline_layout cannot be combined"));
}

TEST_CASE("a last chunk of the MTP layer and the loss alone: the formulas' forward is the graph's",
          "[strategy][layout][analytic]") {
  // Two layers on stage 0 ("Ett"), the MTP layer and the loss on stage 1 ("mL").
  ModelSpec m = test::gpt_model(2, 256, 4, 1000);
  m.mtp_layers = 1;
  RunSpec run = test::gpt_run(m, 1, 2, 1, 64, 2, 1);
  run.strategy.pipeline_layout = "Ett|mL";
  const StageGraph g = build_stage_graph(run, 1);
  double forward = 0;
  int layers = 0;
  for (TaskId id = 0; id < g.size(); ++id) {
    const Task& t = g.task(id);
    if (t.role == TaskRole::kForward && t.kind == TaskKind::kCompute) forward += t.duration;
    layers += g.label_text(t.label) == "qkv_proj.fwd";
  }
  CHECK(layers == 2);  // the MTP layer's, for each of the two micro-batches
  CHECK(extract_iteration_inputs(run).stages[1].forward == Approx(forward / 2).epsilon(1e-9));
}
