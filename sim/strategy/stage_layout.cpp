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

struct LayerRange {
  int first = 0, count = 0;
};

// Layers of `stage` of an uneven split.
int uneven_stage_layers(const PipelineSplit& s, int stage) {
  if (stage == 0 && s.first_stage_layers > 0) return s.first_stage_layers;
  if (stage == s.stages - 1 && s.last_stage_layers > 0) return s.last_stage_layers;
  return (s.layers - s.first_stage_layers - s.last_stage_layers) / middle_stages(s);
}

// Model chunk g's layers. Even: L/(p v) each, the first L mod (p v) chunks one more. Uneven: chunk
// (c, stage) of g = c p + stage holds stage_layers/v, and each round of p chunks holds L/v layers.
LayerRange model_chunk_layers(const PipelineSplit& s, int g) {
  if (!s.uneven()) {
    const int chunks = s.stages * s.virtual_stages, base = s.layers / chunks, extra = s.layers % chunks;
    return {g * base + (g < extra ? g : extra), base + (g < extra ? 1 : 0)};
  }
  const int v = s.virtual_stages, stage = g % s.stages;
  int before = 0;  // layers of the earlier stages in one round of chunks
  for (int k = 0; k < stage; ++k) before += uneven_stage_layers(s, k) / v;
  return {(g / s.stages) * (s.layers / v) + before, uneven_stage_layers(s, stage) / v};
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
    for (int c = 0; c < s.virtual_stages; ++c) n += model_chunk_layers(s, c * s.stages + stage).count;
    return n;
  }
  return uneven_stage_layers(s, stage);
}

int fullest_stage_layer_count(const PipelineSplit& s) {
  int most = 0;
  for (int stage = 0; stage < s.stages; ++stage) most = std::max(most, stage_layer_count(s, stage));
  return most;
}

std::vector<ChunkLayers> stage_chunks(const PipelineSplit& s, int stage) {
  const int chunks = s.stages * s.virtual_stages;
  std::vector<ChunkLayers> out;
  for (int c = 0; c < s.virtual_stages; ++c) {
    ChunkLayers chunk;
    chunk.model_chunk = c * s.stages + stage;
    const LayerRange r = model_chunk_layers(s, chunk.model_chunk);
    chunk.first_layer = r.first;
    chunk.layer_count = r.count;
    chunk.has_embedding = chunk.model_chunk == 0;
    chunk.has_output = chunk.model_chunk == chunks - 1;
    out.push_back(chunk);
  }
  return out;
}

}  // namespace trainsim
