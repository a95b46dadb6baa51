// Balanced stages (sim/strategy/partition.hpp) and the framework's partition methods, on
// splits counted by hand.
#include <catch2/catch.hpp>

#include "sim/strategy/partition.hpp"
#include "sim/strategy/stage_layout.hpp"
#include "tests/support/tiny_model.hpp"

using namespace trainsim;

namespace {
std::vector<double> ones(int n) { return std::vector<double>(static_cast<size_t>(n), 1.0); }
}  // namespace

TEST_CASE("BLOOM's 70 layers with embedding and output counted split 5 6 ... 6 5 over 12 stages", "[strategy]") {
  // 72 units over 12 stages: 6 each; the first and last stage give one slot to the embedding and
  // the output layer (BLOOM-176B trained this way, 70 layers, type:transformer|embedding).
  std::vector<int> expected(12, 6);
  expected.front() = 5;
  expected.back() = 5;
  CHECK(balanced_stage_layers(ones(70), 1, 1, 12) == expected);
}

TEST_CASE("balanced stages minimise the heaviest stage and fill from the first", "[strategy]") {
  // 72 layers + 2: 74 units over 12 stages; no split beats 7 units. Greedy from the front:
  // stage 0 = embedding + 6 layers, stages 1-9 = 7 layers, and the last three layers are left for
  // the two last stages, one each at least: 2, then 1 + the output layer.
  const std::vector<int> got = balanced_stage_layers(ones(72), 1, 1, 12);
  CHECK(got == std::vector<int>{6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 2, 1});
  // Weights [1+2, 1, 1, 1+2] over 2 stages: 3+1 | 1+3 is the only split of bottleneck 4.
  CHECK(balanced_stage_layers(ones(4), 2, 2, 2) == std::vector<int>{2, 2});
  // [3, 1, 1, 1]: 3 | 1+1+1.
  CHECK(balanced_stage_layers(ones(4), 2, 0, 2) == std::vector<int>{1, 3});
  CHECK(balanced_stage_layers(ones(8), 0, 0, 4) == std::vector<int>{2, 2, 2, 2});
  CHECK(balanced_stage_layers(ones(3), 0, 0, 3) == std::vector<int>{1, 1, 1});
}

TEST_CASE("the framework's partition method decides the split when the strategy gives none", "[strategy]") {
  // 6 layers over 4 stages.
  RunSpec run = test::gpt_run(test::gpt_model(6, 256, 4, 1000), 1, 4, 1, 128, 4, 1);
  CHECK(pipeline_split(run).stage_layers.empty());  // uniform: the even split, the first stages one more
  CHECK(stage_layer_count(pipeline_split(run), 0) == 2);
  CHECK(stage_layer_count(pipeline_split(run), 3) == 1);
  run.framework.partition = PartitionMethod::kEmbeddingCounted;
  // 8 units over 4 stages, 2 each: embedding + 1 | 2 | 2 | 1 + output.
  CHECK(pipeline_split(run).stage_layers == std::vector<int>{1, 2, 2, 1});
  // By parameters: a layer of hidden 256 holds 12 h^2 + 4 h (two LayerNorms) = 787,456 + 1,024 =
  // 788,480; each untied table 1000 x 256 = 256,000. Stage 0 cannot take two layers (1,832,960)
  // under the best bottleneck, two middle layers (1,576,960): 1 | 2 | 2 | 1 again.
  run.framework.partition = PartitionMethod::kParameters;
  CHECK(pipeline_split(run).stage_layers == std::vector<int>{1, 2, 2, 1});
  run.strategy.stage_layers = {3, 1, 1, 1};  // an explicit split wins over the method
  CHECK(pipeline_split(run).stage_layers == std::vector<int>{3, 1, 1, 1});
  CHECK(split_problem(pipeline_split(run)).empty());
  run.strategy.stage_layers = {3, 1, 1, 2};
  CHECK(split_problem(pipeline_split(run)) == "stage_layers add up to 7, the model has 6 layers");
}
