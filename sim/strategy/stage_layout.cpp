// Stage layout in closed form (see stage_layout.hpp).
#include "sim/strategy/stage_layout.hpp"

namespace trainsim {

int chunk_layer_count(int layers, int chunks, int model_chunk) {
  return layers / chunks + (model_chunk < layers % chunks ? 1 : 0);
}

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
    chunk.layer_count = chunk_layer_count(layers, chunks, g);
    chunk.has_embedding = g == 0;
    chunk.has_output = g == chunks - 1;
    out.push_back(chunk);
  }
  return out;
}

}  // namespace trainsim
