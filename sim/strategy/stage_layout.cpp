// Stage layout in closed form (see stage_layout.hpp).
#include "sim/strategy/stage_layout.hpp"

#include <algorithm>

#include "sim/model/params.hpp"
#include "sim/strategy/partition.hpp"
#include "sim/strategy/pipeline_layout.hpp"

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
  if (s.layout()) {
    int n = 0;
    for (size_t g = static_cast<size_t>(stage); g < s.chunk_layers.size(); g += static_cast<size_t>(s.stages))
      n += s.chunk_layers[g];
    return n;
  }
  if (!s.stage_layers.empty()) return s.stage_layers[static_cast<size_t>(stage)];
  if (stage == 0 && s.first_stage_layers > 0) return s.first_stage_layers;
  if (stage == s.stages - 1 && s.last_stage_layers > 0) return s.last_stage_layers;
  return (s.layers - s.first_stage_layers - s.last_stage_layers) / middle_stages(s);
}

// Model chunk g's layers. Even: L/(p v) each, the first L mod (p v) chunks one more. Uneven: chunk
// (c, stage) of g = c p + stage holds stage_layers/v, and each round of p chunks holds L/v layers.
LayerRange model_chunk_layers(const PipelineSplit& s, int g) {
  if (s.layout()) {
    int first = 0;
    for (int k = 0; k < g; ++k) first += s.chunk_layers[static_cast<size_t>(k)];
    return {first, s.chunk_layers[static_cast<size_t>(g)]};
  }
  if (!s.uneven() && (s.embedding_slot > 0 || s.loss_slot > 0)) {
    const int chunks = s.stages * s.virtual_stages, base = (s.layers + s.embedding_slot + s.loss_slot) / chunks;
    const int e = s.embedding_slot, l = s.loss_slot;
    return {g * base - (g > 0 ? e : 0), base - (g == 0 ? e : 0) - (g == chunks - 1 ? l : 0)};
  }
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

namespace {

std::string explicit_split_problem(const PipelineSplit& s) {
  if (s.first_stage_layers > 0 || s.last_stage_layers > 0)
    return "stage_layers cannot be combined with first_stage_layers / last_stage_layers";
  if (s.virtual_stages != 1) return "stage_layers needs virtual_stages 1 (got " + num(s.virtual_stages) + ")";
  if (static_cast<int>(s.stage_layers.size()) != s.stages)
    return "stage_layers lists " + num(static_cast<int>(s.stage_layers.size())) + " stages, pp is " + num(s.stages);
  long long sum = 0;
  for (int n : s.stage_layers) {
    if (n < 1) return "every stage needs at least one layer (got " + num(n) + ")";
    sum += n;
  }
  if (sum != s.layers)
    return "stage_layers add up to " + std::to_string(sum) + ", the model has " + num(s.layers) + " layers";
  return "";
}

// The framework's balanced split (embedding and output counted as one layer each, or every part
// weighed by its parameters); empty when it does not apply (uniform, one stage, interleaving).
std::vector<int> framework_split(const RunSpec& run) {
  const StrategySpec& s = run.strategy;
  const ModelSpec& m = run.model;
  const PartitionMethod method = run.framework.partition;
  if (method == PartitionMethod::kUniform || s.pp < 2 || s.virtual_stages != 1 || s.pp > m.layers) return {};
  std::vector<double> w(static_cast<size_t>(m.layers), 1.0);
  double embedding = 1, output = 1;
  if (method == PartitionMethod::kParameters) {
    for (int l = 0; l < m.layers; ++l) w[static_cast<size_t>(l)] = static_cast<double>(layer_params(m, l).total());
    const ParamCount all = count_params(m);
    embedding = static_cast<double>(all.embedding);
    output = static_cast<double>(m.tied_embeddings ? all.embedding : all.output);  // a tied table on both ends
  }
  return balanced_stage_layers(w, embedding, output, s.pp);
}

}  // namespace

PipelineSplit pipeline_split(const RunSpec& run) {
  const StrategySpec& s = run.strategy;
  PipelineSplit split{run.model.layers, s.pp, s.virtual_stages, s.first_stage_layers, s.last_stage_layers,
                      s.stage_layers, s.account_for_embedding ? 1 : 0, s.account_for_loss ? 1 : 0};
  split.mtp_layers = run.model.mtp_layers;  // on the last stage: without a layout, as Megatron-Core; with one, checked
  if (!s.pipeline_layout.empty()) {
    const PipelineLayout layout = parse_pipeline_layout(s.pipeline_layout);
    split.layout_error = layout_problem(layout, run.model.layers, run.model.mtp_layers, s.pp * s.virtual_stages);
    if (split.layout_error.empty())
      for (const LayoutChunk& c : layout.chunks) split.chunk_layers.push_back(c.decoders);
  }
  if (!split.uneven()) split.stage_layers = framework_split(run);
  return split;
}

std::string split_problem(const PipelineSplit& s) {
  const int v = s.virtual_stages;
  if (s.layout()) {
    if (!s.layout_error.empty()) return "pipeline_layout " + s.layout_error;
    if (s.first_stage_layers > 0 || s.last_stage_layers > 0 || !s.stage_layers.empty() || s.embedding_slot + s.loss_slot > 0)
      return "pipeline_layout cannot be combined with first_stage_layers, last_stage_layers, stage_layers or account_for_*";
    return "";
  }
  if (!s.stage_layers.empty()) return explicit_split_problem(s);
  const long long chunks = static_cast<long long>(s.stages) * v;  // degrees come from user input: no int overflow
  const int slots = s.embedding_slot + s.loss_slot;
  if (slots > 0) {
    if (s.uneven()) return "account_for_embedding / account_for_loss apply to the even split only, not with "
                           "first_stage_layers, last_stage_layers or stage_layers";
    const long long total = static_cast<long long>(s.layers) + slots;
    if (total % chunks != 0)
      return "layers (" + num(s.layers) + ") plus the counted embedding/loss (" + num(slots) +
             ") must divide evenly into pp*virtual_stages = " + std::to_string(chunks) + " chunks";
    if (total / chunks < 1 + std::max(s.embedding_slot, s.loss_slot) + (chunks == 1 ? std::min(s.embedding_slot, s.loss_slot) : 0))
      return "with the embedding/loss counted, the first or last chunk would hold no layer (" +
             std::to_string(total / chunks) + " slots per chunk)";
    return "";
  }
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
    if (chunk.has_output) chunk.layer_count += s.mtp_layers;
    out.push_back(chunk);
  }
  return out;
}

}  // namespace trainsim
