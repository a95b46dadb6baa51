// Which layers each pipeline stage holds, even and uneven (Megatron-Core's first/last stage layer
// counts), with and without virtual stages: every case counted by hand.
#include <catch2/catch.hpp>
#include <vector>

#include "sim/strategy/stage_layout.hpp"

using namespace trainsim;

namespace {

// (first layer, layer count) of each local chunk of `stage`.
std::vector<std::pair<int, int>> layout(const PipelineSplit& split, int stage) {
  std::vector<std::pair<int, int>> out;
  for (const ChunkLayers& c : stage_chunks(split, stage)) out.push_back({c.first_layer, c.layer_count});
  return out;
}

}  // namespace

TEST_CASE("an uneven split gives the first and last stage their layers and the others equal shares", "[strategy]") {
  // 32 layers, 4 stages, first 6 and last 6: the middle two share 20, 10 each: 0-5, 6-15, 16-25, 26-31.
  const PipelineSplit split{32, 4, 1, 6, 6};
  REQUIRE(split_problem(split).empty());
  CHECK(layout(split, 0) == std::vector<std::pair<int, int>>{{0, 6}});
  CHECK(layout(split, 1) == std::vector<std::pair<int, int>>{{6, 10}});
  CHECK(layout(split, 2) == std::vector<std::pair<int, int>>{{16, 10}});
  CHECK(layout(split, 3) == std::vector<std::pair<int, int>>{{26, 6}});
  CHECK(stage_chunks(split, 0).front().has_embedding);
  CHECK(stage_chunks(split, 3).front().has_output);
}

TEST_CASE("an uneven split with virtual stages splits each stage evenly over its chunks in Megatron's order", "[strategy]") {
  // 32 layers, 4 stages x 2 chunks, stages of 6, 10, 10, 6 -> chunks of 3, 5, 5, 3 layers; one round
  // of model chunks 0..3 holds 16 layers: (0,0) 0-2, (0,1) 3-7, (0,2) 8-12, (0,3) 13-15, then 16-31.
  const PipelineSplit split{32, 4, 2, 6, 6};
  REQUIRE(split_problem(split).empty());
  CHECK(layout(split, 0) == std::vector<std::pair<int, int>>{{0, 3}, {16, 3}});
  CHECK(layout(split, 1) == std::vector<std::pair<int, int>>{{3, 5}, {19, 5}});
  CHECK(layout(split, 3) == std::vector<std::pair<int, int>>{{13, 3}, {29, 3}});
  CHECK(stage_chunks(split, 3).back().has_output);
  CHECK(!stage_chunks(split, 3).front().has_output);
}

TEST_CASE("Llama 3 405B's 126 layers interleave over 16 stages only with an uneven split", "[strategy]") {
  // Even: 126 is not a multiple of 16 x 2 chunks. First 6 and last 8 leave 112 = 14 x 8 for the
  // middle stages; 6, 8 and 8 are all even, so 2 chunks per stage work.
  CHECK(!split_problem({126, 16, 2, 0, 0}).empty());
  REQUIRE(split_problem({126, 16, 2, 6, 8}).empty());
  int total = 0;
  for (int s = 0; s < 16; ++s) total += stage_layer_count({126, 16, 2, 6, 8}, s);
  CHECK(total == 126);
  CHECK(stage_layer_count({126, 16, 2, 6, 8}, 7) == 8);
}

TEST_CASE("an uneven split that cannot be built says why", "[strategy]") {
  CHECK_THAT(split_problem({32, 1, 1, 6, 0}), Catch::Contains("at least 2 pipeline stages"));
  CHECK_THAT(split_problem({32, 4, 1, 7, 0}), Catch::Contains("25 layers left") && Catch::Contains("other 3 stages"));
  CHECK_THAT(split_problem({32, 2, 1, 10, 10}), Catch::Contains("must equal the 32 layers"));
  CHECK_THAT(split_problem({32, 4, 2, 5, 5}), Catch::Contains("not a multiple of virtual_stages (2)"));
  CHECK(split_problem({32, 2, 1, 10, 22}).empty());
}

TEST_CASE("the even split is unchanged: the first L mod p chunks take one layer more", "[strategy]") {
  // 10 layers over 4 stages: 3, 3, 2, 2.
  const PipelineSplit split{10, 4, 1, 0, 0};
  CHECK(layout(split, 0) == std::vector<std::pair<int, int>>{{0, 3}});
  CHECK(layout(split, 2) == std::vector<std::pair<int, int>>{{6, 2}});
  CHECK(stage_layer_count(split, 3) == 2);
}

TEST_CASE("with the embedding and loss counted, the first and last model chunks hold one layer fewer", "[strategy]") {
  // Llama 3 405B's 126 layers, pp 8 x v 8 (Megatron-Bridge's 405B layout): 126 + 2 slots = 128 over 64
  // chunks = 2 each; model chunk 0 (stage 0, chunk 0) holds 1 layer beside the embedding, model chunk
  // 63 (stage 7, chunk 7) 1 layer beside the loss: stage 0 holds 15 layers, stages 1-6 16, stage 7 15.
  PipelineSplit split{126, 8, 8, 0, 0};
  split.embedding_slot = 1;
  split.loss_slot = 1;
  REQUIRE(split_problem(split).empty());
  const auto s0 = layout(split, 0);
  CHECK(s0.front() == std::make_pair(0, 1));   // layer 0 only
  CHECK(s0[1] == std::make_pair(15, 2));       // model chunk 8: slots 16-17 -> layers 15-16
  CHECK(stage_layer_count(split, 0) == 15);
  CHECK(stage_layer_count(split, 3) == 16);
  CHECK(stage_layer_count(split, 7) == 15);
  CHECK(layout(split, 7).back() == std::make_pair(125, 1));  // model chunk 63: layer 125 and the loss
  int total = 0;
  for (int s = 0; s < 8; ++s) total += stage_layer_count(split, s);
  CHECK(total == 126);
  // Without the counted slots 126 layers do not split over 64 chunks.
  CHECK_FALSE(split_problem(PipelineSplit{126, 8, 8, 0, 0}).empty());
  split.loss_slot = 0;  // 127 slots: not a multiple of 64
  CHECK_FALSE(split_problem(split).empty());
}
