// Which layers each pipeline stage holds: a property of the strategy in closed form, used by the
// graph builder (which tasks a stage runs) and by the analytic formulas (memory, iteration time).
// With v virtual stages the model is cut into p*v chunks; chunk c of stage s is model chunk
// g = c*p + s (Megatron's interleaving). Layers are spread as evenly as possible: model chunk g gets
// L/(p*v) layers, the first L%(p*v) chunks one more. The embedding sits on model chunk 0 and the
// output layer + loss on the last model chunk, so the first and last stages carry extra work
// (uneven stages are modelled, not ignored).
#pragma once
#include <vector>

namespace trainsim {

struct ChunkLayers {
  int model_chunk = 0;    // g = chunk * p + stage
  int first_layer = 0;    // global index of its first layer
  int layer_count = 0;
  bool has_embedding = false;
  bool has_output = false;
};

// Chunks of `stage`, indexed by local chunk 0..v-1.
[[nodiscard]] std::vector<ChunkLayers> stage_chunks(int layers, int stages, int virtual_stages, int stage);

// Layers of model chunk g of p*v chunks (closed form of stage_chunks' layer_count).
[[nodiscard]] int chunk_layer_count(int layers, int chunks, int model_chunk);

}  // namespace trainsim
