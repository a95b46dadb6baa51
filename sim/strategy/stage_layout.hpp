// Which layers each pipeline stage holds: a property of the strategy in closed form, used by the
// graph builder (which tasks a stage runs) and by the analytic formulas (memory, iteration time).
// With v virtual stages the model is cut into p*v chunks; chunk c of stage s is model chunk
// g = c*p + s (Megatron's interleaving), and model chunks hold consecutive layers in g order.
//  - Even split (the default): model chunk g gets L/(p*v) layers, the first L%(p*v) chunks one more.
//  - Uneven split, as Megatron-Core's --decoder-first-pipeline-num-layers and
//    --decoder-last-pipeline-num-layers (megatron/core/transformer/transformer_block.py,
//    get_num_layers_to_build): the first and/or last stage hold the given layers, the other stages
//    share the rest equally; each stage's layers divide evenly over its v chunks.
//  - Embedding and/or loss counted (Megatron-Core --account-for-embedding-in-pipeline-split,
//    --account-for-loss-in-pipeline-split; transformer_layer.py get_transformer_layer_offset): the
//    even split of L + e + l slots (e, l = 1 when counted) over p*v chunks, base = (L+e+l)/(p v)
//    each; model chunk 0 gives one slot to the embedding and the last model chunk one to the loss:
//    chunk g holds base - [g = 0]·e - [g = p v - 1]·l layers starting at g·base - [g > 0]·e.
//  - Explicit layers per stage (v = 1): the run's strategy.stage_layers, or the framework's
//    partition method (embedding_counted, parameters: sim/strategy/partition.hpp) when the run
//    gives no split.
// The embedding sits on model chunk 0 and the output layer + loss on the last model chunk, so the
// first and last stages carry extra work (uneven stages are modelled, not ignored).
#pragma once
#include <string>
#include <vector>

#include "sim/config/run_spec.hpp"

namespace trainsim {

struct ChunkLayers {
  int model_chunk = 0;    // g = chunk * p + stage
  int first_layer = 0;    // global index of its first layer
  int layer_count = 0;    // the last chunk's count includes the model's MTP layers (numbered on from L)
  bool has_embedding = false;
  bool has_output = false;
};

struct PipelineSplit {
  int layers = 1;              // L
  int stages = 1;              // p
  int virtual_stages = 1;      // v
  int first_stage_layers = 0;  // layers of stage 0; 0 = as the even split gives them
  int last_stage_layers = 0;   // layers of stage p-1; 0 = as the even split gives them
  std::vector<int> stage_layers{};  // layers of every stage (v = 1); empty = not given
  int embedding_slot = 0;      // 1: the embedding counts as a layer of the even split (Megatron-Core)
  int loss_slot = 0;           // 1: the loss counts as a layer of the even split
  int mtp_layers = 0;          // multi-token-prediction layers after the last chunk's layers (outside the split)
  // Transformer layers of every model chunk, from strategy.pipeline_layout (sim/strategy/pipeline_layout.hpp);
  // empty = not given; `layout_error` why the layout does not fit, empty when it does.
  std::vector<int> chunk_layers{};
  std::string layout_error{};
  [[nodiscard]] bool layout() const { return !chunk_layers.empty() || !layout_error.empty(); }
  [[nodiscard]] bool uneven() const {
    return first_stage_layers > 0 || last_stage_layers > 0 || !stage_layers.empty() || layout();
  }
};

// The run's split: strategy.stage_layers, else first/last stage layers, else the framework's
// partition method (uniform: the even split).
[[nodiscard]] PipelineSplit pipeline_split(const RunSpec& run);

// Why the split cannot be built, naming the numbers; empty when it can. Explicit stage layers
// need one count of at least 1 per stage, summing to L, v = 1 and no first/last counts. An uneven split needs
// p >= 2, the rest (L - first - last) shared equally by the other stages (at least one layer each),
// or first + last = L when there are no others; with v > 1 every stage's layers a multiple of v, and
// for the even split L a multiple of p*v. Counted embedding/loss slots need the even split, L + slots
// a multiple of p*v, and at least one layer left in the first and last chunk.
[[nodiscard]] std::string split_problem(const PipelineSplit& split);

// Layers of `stage` (summed over its chunks). The split must be valid (split_problem empty).
[[nodiscard]] int stage_layer_count(const PipelineSplit& split, int stage);

// Layers of the stage that holds most (what bounds per-stage work and the recompute counts).
[[nodiscard]] int fullest_stage_layer_count(const PipelineSplit& split);

// Chunks of `stage`, indexed by local chunk 0..v-1. The split must be valid.
[[nodiscard]] std::vector<ChunkLayers> stage_chunks(const PipelineSplit& split, int stage);

}  // namespace trainsim
