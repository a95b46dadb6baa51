#include "sim/graph/stage_layout.hpp"

namespace trainsim {

std::vector<ChunkLayers> stage_chunks(int layers, int stages, int virtual_stages, int stage) {
  const int chunks = stages * virtual_stages;
  const int base = layers / chunks;
  const int extra = layers % chunks;
  std::vector<ChunkLayers> out;
  for (int c = 0; c < virtual_stages; ++c) {
    ChunkLayers chunk;
    chunk.model_chunk = c * stages + stage;
    const int g = chunk.model_chunk;
    chunk.first_layer = g * base + (g < extra ? g : extra);
    chunk.layer_count = base + (g < extra ? 1 : 0);
    chunk.has_embedding = g == 0;
    chunk.has_output = g == chunks - 1;
    out.push_back(chunk);
  }
  return out;
}

}  // namespace trainsim
