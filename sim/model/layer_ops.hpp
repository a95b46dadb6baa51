// One whole transformer layer: attention block followed by a dense MLP or an MoE block.
#pragma once
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/model/kernel.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

// Whether `layer_index` is one of the model's multi-token-prediction layers (ModelSpec::mtp_layers),
// numbered on from the last layer: layers, layers + 1, ... Such a layer is of the last layer's kind
// (Megatron-Core's mtp_layer_is_moe = the last entry of the MoE layer pattern).
[[nodiscard]] bool is_mtp_layer(const ModelSpec& m, int layer_index);

// Whether layer `layer_index` (0-based) has an MoE FFN: the model is MoE, the layer is past the
// first_dense_layers dense prefix, and it is every layer_frequency-th layer after that prefix
// ((i - first_dense_layers) % layer_frequency == 0, as ModelSpec documents). Note DeepSeek's
// reference code tests i % freq instead; the two agree whenever freq = 1 (DeepSeek-V2/V3).
[[nodiscard]] bool is_moe_layer(const ModelSpec& m, int layer_index);

// Whether layer `layer_index` (0-based) attends through the model's sliding window: every layer
// when full_attention_every is 0, else all but layers k-1, 2k-1, ... (Megatron-Core's
// is_layer_window_attention: 1-based layer_number % window_attn_skip_freq != 0; GPT-OSS's
// layer_types start with a sliding layer). False without a sliding_window.
[[nodiscard]] bool is_window_layer(const ModelSpec& m, int layer_index);

// A layer's kind for what it holds and runs: dense 0, MoE 1, an MTP layer (with its module) 2. A layer's
// parameters and activations depend on its index only through it.
inline constexpr int kLayerKinds = 3;
[[nodiscard]] int layer_kind(const ModelSpec& m, int layer_index);

// Number of MoE layers among the model's layers.
[[nodiscard]] int moe_layer_count(const ModelSpec& m);

// attention_forward + (moe_forward or mlp_forward), and the backward in reverse block order.
[[nodiscard]] std::vector<Kernel> layer_forward(const ModelSpec& m, const Shard& sh, int layer_index);
[[nodiscard]] std::vector<Kernel> layer_backward(const ModelSpec& m, const Shard& sh, int layer_index);

}  // namespace trainsim
