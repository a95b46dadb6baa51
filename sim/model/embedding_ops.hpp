// Input embedding (first pipeline stage) and output layer (last stage), per device. Both are
// vocab-parallel over tp (Megatron VocabParallelEmbedding / column-parallel logits): each rank
// holds ceil(V/t) rows of the table.
#pragma once
#include <vector>

#include "sim/config/model_spec.hpp"
#include "sim/model/kernel.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

// Vocabulary rows on one TP rank: ceil(V / tp) (frameworks pad V to a multiple of tp).
[[nodiscard]] int64_t local_vocab(const ModelSpec& m, const Shard& sh);

// "embedding.fwd" (kEmbedding): reads the token ids (8 bytes each) and the rows of this rank's
// vocabulary slice (on average b·s·h/t elements), writes the b·s×h output (zeros for tokens
// outside the slice; the TP all-reduce / reduce-scatter that merges them is a collective).
[[nodiscard]] std::vector<Kernel> embedding_forward(const ModelSpec& m, const Shard& sh);
// "embedding.wgrad" (kEmbedding, weight_grad): reads the b·s×h output gradient, scatter-adds it
// into this rank's rows (read + write of ~b·s·h/t elements). No input gradient exists.
[[nodiscard]] std::vector<Kernel> embedding_backward(const ModelSpec& m, const Shard& sh);

// final_norm.fwd, logits.fwd (GEMM b·s × V/t × h), cross_entropy.fwd (vocab-parallel softmax
// and loss over b·s × V/t logits in fp32: reads the logits, writes the fp32 softmax kept for the
// backward).
[[nodiscard]] std::vector<Kernel> output_forward(const ModelSpec& m, const Shard& sh);
// cross_entropy.dgrad, logits.dgrad, logits.wgrad, final_norm.dgrad.
[[nodiscard]] std::vector<Kernel> output_backward(const ModelSpec& m, const Shard& sh);

}  // namespace trainsim
