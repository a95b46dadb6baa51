// Multi-token prediction (DeepSeek-AI 2024, DeepSeek-V3, arXiv 2412.19437, Sec. 2.2), per device, as
// Megatron-Core runs it (MultiTokenPredictionLayer in NVIDIA/Megatron-LM
// megatron/core/transformer/multi_token_prediction.py at commit 00611e6eeb0b09b5ee074750956855215ddbd67f):
// each module embeds the tokens shifted once more with the model's embedding, normalises that embedding
// (enorm) and the previous hidden state (hnorm), concatenates the two (2h) and projects them back to h
// with eh_proj, a column-parallel Linear whose output is all-gathered over the TP group and, under
// sequence parallelism, scattered back to the sequence shards; then one transformer layer of the last
// layer's kind, its final norm and the shared output head with a loss of its own.
// This file has the projection's part (norms, concatenation, eh_proj); the graph builder places the
// embedding, the layer and the output head around it (sim/graph/layer_tasks.cpp). The TP all-gather of
// eh_proj's output is timed as the block's reduction of the same bytes (a reduce-scatter under SP moves
// the same; without SP it is timed as an all-reduce, twice an all-gather's bytes).
#pragma once
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/model/kernel.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

// Weights of one MTP module's projection part on a device of tensor degree `tp`: eh_proj (2h x ceil(h/tp))
// and the gains (and biases) of enorm, hnorm and its final norm.
struct MtpParams {
  int64_t projection = 0, norms = 0;
};
[[nodiscard]] MtpParams mtp_params(const ModelSpec& m, int tp);

// enorm, hnorm, the concatenation (torch.cat: reads and writes 2h per token), eh_proj (with its input's
// quantization in 8-bit runs).
[[nodiscard]] std::vector<Kernel> mtp_input_forward(const ModelSpec& m, const Shard& sh);
// eh_proj's input and weight gradients, the two norms' backward and autograd's sum of the previous hidden
// state's two gradients (from the main output head and from hnorm).
[[nodiscard]] std::vector<Kernel> mtp_input_backward(const ModelSpec& m, const Shard& sh);

// The module's two inputs, the hidden state and the shifted tokens' embedding (each a norm's input;
// sequence-sharded under SP): all that full recompute keeps of its projection and layer.
[[nodiscard]] double mtp_checkpoint_bytes(const ModelSpec& m, const Shard& sh);

// Activation bytes one MTP module's projection part keeps per micro-batch: both norms' inputs and the
// concatenation eh_proj reads (sequence-sharded under SP; its FP8 copy in 8-bit runs).
[[nodiscard]] double mtp_input_activation_bytes(const ModelSpec& m, const Shard& sh);

}  // namespace trainsim
