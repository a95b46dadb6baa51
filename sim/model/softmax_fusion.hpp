// When unfused attention normalises its scores [b, np, sq, sk] (micro-batch, heads on this device, query
// rows, keys) with Megatron's fused scale-mask-softmax kernel, and when with PyTorch's own ops: each
// framework version's FusedScaleMaskSoftmax.is_kernel_available, for the causal (upper-triangular) mask of
// a decoder. Pure functions.
//
// Sources:
//   [MC-FS]   NVIDIA/Megatron-LM megatron/core/fusions/fused_softmax.py at commit
//             550f9c44589efb85af6c5a11da8fbc8c3491b636: the kernel runs for 16-bit input when
//             16 < sk <= 4096, sq % 4 == 0, sk % 4 == 0, (b·np) % 4 == 0 and, causal,
//             (b·np) % get_batch_per_block(sq, sk, b, np) == 0. Megatron-LM's megatron/model/fused_softmax.py
//             has the same rule since its 2022 versions (NVIDIA/Megatron-LM issue #191, 2022-02-24: "The
//             current version in Megatron supports up to 4096"); the 2021 code (commit
//             aed2f75e209e525c842aec7c044af7acae2a4614) stopped at 2048 keys, which no row here exceeds.
//   [MDS-FS]  bigscience-workshop/Megatron-DeepSpeed megatron/model/fused_softmax.py at commit
//             51ac6022ecbdb807b4db8fc72333855d5d725844: the condition reads `16 < sq <= 2048` (queries, not
//             keys) and `get_batch_per_block` is declared (b, np, sq, sk) but called with (sq, sk, b, np),
//             so the CUDA helper receives the heads per device where it expects the key length. EleutherAI/
//             gpt-neox pull request #572 (2022-02-23, "the code I accidentally committed ... can cause
//             serious problems") fixes the same code; the fork took the fix with pull requests #259/#260
//             (2022-03-01/02: "I think this might have affect the throughput").
//   [MLM-K]   NVIDIA/Megatron-LM megatron/fused_kernels/scaled_masked_softmax.h (get_batch_per_block at
//             commit a5acbf539e2040712fd00d1cfc8af9f07a38a518): with p the next power of two of its key
//             length argument, warps of min(p, 32) threads, 2 rows per warp when p <= 128 (else 1), 128
//             threads per block: (128 / min(p, 32)) x (p <= 128 ? 2 : 1) rows per block.
#pragma once
#include <cstdint>

#include "sim/config/framework_spec.hpp"
#include "sim/config/model_spec.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

// [MLM-K] Rows (attention batches) one thread block of the fused kernel takes, for a key length `keys`.
[[nodiscard]] int64_t softmax_batches_per_block(int64_t keys);

// Whether the fused kernel runs for scores of shape [b, np, sq, sk] under `rule`; `sixteen_bit`: the
// scores are fp16 or bf16 (the kernel takes nothing else). kAlways: always.
[[nodiscard]] bool fused_softmax_runs(SoftmaxFusion rule, int64_t b, int64_t np, int64_t sq, int64_t sk,
                                      bool sixteen_bit);

// The same for one device's unfused attention: the shard's micro-batch, local heads, query rows and keys,
// 16-bit when its activation elements are (the one call every consumer makes).
[[nodiscard]] bool fused_softmax_runs(const ModelSpec& m, const Shard& sh);

}  // namespace trainsim
