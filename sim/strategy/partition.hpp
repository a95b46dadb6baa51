// Balanced pipeline stages: the contiguous split of a model's layers over p stages that minimises
// the heaviest stage, as DeepSpeed's PipelineModule does for partition_method "parameters" and
// "type:transformer|embedding" (deepspeed/runtime/utils.py partition_balanced: the smallest
// bottleneck, then each part filled greedily from the first stage). The embedding rides with the
// first layer and the output layer with the last (every stage holds at least one layer).
#pragma once
#include <string>
#include <vector>

namespace trainsim {

// Layers per stage for weights `layer_weights` (one per layer, in order), `embedding_weight`
// (added to stage 0) and `output_weight` (added to the last stage). Requires 1 <= stages <=
// layers and non-negative weights. Deterministic: the same inputs give the same split.
[[nodiscard]] std::vector<int> balanced_stage_layers(const std::vector<double>& layer_weights, double embedding_weight,
                                                     double output_weight, int stages);

}  // namespace trainsim
