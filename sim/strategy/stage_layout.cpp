// Stage layout in closed form (see stage_layout.hpp).
#include "sim/strategy/stage_layout.hpp"

#include <algorithm>

namespace trainsim {
namespace {

std::string num(int v) { return std::to_string(v); }

// Stages that share what the first and last stage do not hold.
int middle_stages(const PipelineSplit& s) {
  return s.stages - (s.first_stage_layers > 0 ? 1 : 0) - (s.last_stage_layers > 0 ? 1 : 0);
}

}  // namespace

PipelineSplit pipeline_split(const StrategySpec& s, int layers) {
  return {layers, s.pp, s.virtual_stages, s.first_stage_layers, s.last_stage_layers};
}

std::string split_problem(const PipelineSplit& s) {
  const int v = s.virtual_stages;
  const long long chunks = static_cast<long long>(s.stages) * v;  // degrees come from user input: no int overflow
  if (!s.uneven()) {
    if (v > 1 && s.layers % chunks != 0)
      return "layers (" + num(s.layers) + ") must divide evenly into pp*virtual_stages = " + std::to_string(chunks) +
             " chunks (or set first_stage_layers / last_stage_layers)";
    return "";
  }
  if (s.stages < 2) return "an uneven split needs at least 2 pipeline stages (pp is " + num(s.stages) + ")";
  if (static_cast<long long>(s.first_stage_layers) + s.last_stage_layers > s.layers)
    return "first_stage_layers + last_stage_layers exceed the " + num(s.layers) + " layers";
  const int rest = s.layers - s.first_stage_layers - s.last_stage_layers;
  const int middle = middle_stages(s);
  if (middle == 0 && rest != 0)
    return "with 2 stages, first_stage_layers + last_stage_layers must equal the " + num(s.layers) + " layers";
  if (middle > 0 && (rest < middle || rest % middle != 0))
    return "the " + num(rest) + " layers left after the first and last stage must split equally over the other " +
           num(middle) + " stages, at least one each";
  for (int stage = 0; stage < s.stages; ++stage)
    if (stage_layer_count(s, stage) % v != 0)
      return "stage " + num(stage) + " holds " + num(stage_layer_count(s, stage)) +
             " layers, not a multiple of virtual_stages (" + num(v) + ")";
  return "";
}

int stage_layer_count(const PipelineSplit& s, int stage) {
  if (!s.uneven()) {
    int n = 0;
    for (int c = 0; c < s.virtual_stages; ++c) n += chunk_layer_count(s.layers, s.stages * s.virtual_stages, c * s.stages + stage);
    return n;
  }
  if (stage == 0 && s.first_stage_layers > 0) return s.first_stage_layers;
  if (stage == s.stages - 1 && s.last_stage_layers > 0) return s.last_stage_layers;
  return (s.layers - s.first_stage_layers - s.last_stage_layers) / middle_stages(s);
}

int fullest_stage_layer_count(const PipelineSplit& s) {
  int most = 0;
  for (int stage = 0; stage < s.stages; ++stage) most = std::max(most, stage_layer_count(s, stage));
  return most;
}

int chunk_layer_count(int layers, int chunks, int model_chunk) {
  return layers / chunks + (model_chunk < layers % chunks ? 1 : 0);
}

std::vector<ChunkLayers> stage_chunks(const PipelineSplit& s, int stage) {
  if (!s.uneven()) return stage_chunks(s.layers, s.stages, s.virtual_stages, stage);
  const int v = s.virtual_stages;
  int before = 0;  // layers of the earlier stages in one round of chunks
  for (int k = 0; k < stage; ++k) before += stage_layer_count(s, k) / v;
  std::vector<ChunkLayers> out;
  for (int c = 0; c < v; ++c) {
    ChunkLayers chunk;
    chunk.model_chunk = c * s.stages + stage;
    chunk.first_layer = c * (s.layers / v) + before;  // each round of p chunks holds L/v layers
    chunk.layer_count = stage_layer_count(s, stage) / v;
    chunk.has_embedding = chunk.model_chunk == 0;
    chunk.has_output = chunk.model_chunk == s.stages * v - 1;
    out.push_back(chunk);
  }
  return out;
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
