// Megatron-Core's custom pipeline layout (--pipeline-model-parallel-layout; NVIDIA/Megatron-LM
// megatron/core/transformer/pipeline_parallel_layer_layout.py at commit
// 00caa53af30912914981c86f39db123961678bbd, parse_str_to_list): one entry per model chunk, in model-chunk
// order (virtual stage by virtual stage, each over the pipeline ranks), separated by '|'; in each, 'E' the
// embedding, 't' a transformer layer, 'm' a multi-token-prediction layer, 'L' the loss. "(...)*n" repeats
// a group, "x*n" a character, and commas are cosmetic: "Et*4|(tttt|)*14tmL" is the first chunk with the
// embedding and 4 layers, 14 chunks of 4 and a last chunk with 1 layer, the MTP layer and the loss.
#pragma once
#include <string>
#include <vector>

namespace trainsim {

struct LayoutChunk {
  int decoders = 0, mtp = 0;
  bool embedding = false, loss = false;
};

struct PipelineLayout {
  std::vector<LayoutChunk> chunks;
  std::string error;  // why the text does not parse; empty when it does
};

// Expands and parses `text`. Does not check it against a model or strategy (layout_problem does).
[[nodiscard]] PipelineLayout parse_pipeline_layout(const std::string& text);

// Why `layout` cannot run a model of `layers` transformer layers and `mtp_layers` MTP layers on
// pp x virtual_stages chunks, naming the numbers; empty when it can. As Megatron-Core: the embedding
// first in the first chunk, the loss last in the last, each once; every layer counted. Beyond it:
// the MTP layers in the last chunk, with the loss (an MTP chunk of its own is not modelled).
[[nodiscard]] std::string layout_problem(const PipelineLayout& layout, int layers, int mtp_layers, int chunks);

}  // namespace trainsim
