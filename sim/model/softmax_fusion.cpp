// Megatron's fused-softmax availability rules (see softmax_fusion.hpp).
#include "sim/model/softmax_fusion.hpp"

namespace trainsim {

int64_t softmax_batches_per_block(int64_t keys) {
  int64_t p = 1;
  while (p < keys) p *= 2;  // log2_ceil in the CUDA helper
  const int64_t warp = p < 32 ? p : 32;
  const int64_t rows_per_warp = p <= 128 ? 2 : 1;
  constexpr int64_t kThreadsPerBlock = 128;
  return kThreadsPerBlock / warp * rows_per_warp;
}

bool fused_softmax_runs(SoftmaxFusion rule, int64_t b, int64_t np, int64_t sq, int64_t sk, bool sixteen_bit) {
  const int64_t batches = b * np;
  switch (rule) {
    case SoftmaxFusion::kAlways: return true;
    case SoftmaxFusion::kMegatron:  // [MC-FS]
      return sixteen_bit && sk > 16 && sk <= 4096 && sq % 4 == 0 && sk % 4 == 0 && batches % 4 == 0 &&
             batches % softmax_batches_per_block(sk) == 0;
    case SoftmaxFusion::kMegatronDeepSpeed2022:  // [MDS-FS]: the queries bound, the heads in the keys' place
      return sixteen_bit && sq > 16 && sq <= 2048 && sk <= 2048 && sk % 4 == 0 && batches % 4 == 0 &&
             batches % softmax_batches_per_block(np) == 0;
  }
  return true;
}

bool fused_softmax_runs(const ModelSpec& m, const Shard& sh) {
  constexpr double kFp32Bytes = 4;  // the kernel takes only narrower scores
  return fused_softmax_runs(sh.softmax_fusion, sh.micro_batch, local_heads(m, sh), sh.seq, sh.context,
                            activation_element_bytes(sh.precision) < kFp32Bytes);
}

}  // namespace trainsim
