// One compute kernel of the operator catalogue: what it computes, independent of hardware.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "sim/config/precision.hpp"
#include "sim/core/units.hpp"

namespace trainsim {

enum class KernelClass : uint8_t {
  kGemm,         // dense matrix multiply; has a GemmShape
  kAttention,    // fused (flash) attention core: QK^T, softmax, PV
  kElementwise,  // memory-bound: norms, activations, residual adds, dropout, softmax, rope
  kEmbedding,    // gather of embedding rows
  kOptimizer,    // Adam step over a parameter shard (memory-bound)
};

// C[m×n] = A[m×k] · B[k×n], repeated `batch` times (batch > 1 for grouped/expert GEMMs).
struct GemmShape {
  int64_t m = 0, n = 0, k = 0, batch = 1;
};

struct Kernel {
  std::string name;          // "qkv_proj.fwd", "attention.bwd", "mlp_down.wgrad", ...
  KernelClass cls = KernelClass::kElementwise;
  Flops flops = 0;           // FLOP executed (multiply-add = 2 FLOP)
  Bytes bytes = 0;           // bytes read + written in HBM
  GemmShape gemm;            // only for kGemm
  double random_elements = 0;  // random numbers drawn inside the kernel (dropout of fused attention)
  double attention_keys = 0;   // kAttention: keys each query attends on average (causal: half the context)
  double attention_max_keys = 0;  // kAttention: keys the longest query tile spans (causal: the context)
  double attention_tiles = 0;     // kAttention: query tiles of the kernel, b·heads·ceil(s / tile rows)
  bool attention_backward = false;  // kAttention: the backward (dQ, dK, dV), at its own efficiency
  bool weight_grad = false;  // backward kernel computing weight gradients (deferrable: zero-bubble W)
  // The precision the kernel's math runs in: it picks the peak FLOP/s and, for GEMMs, the efficiency
  // level. An FP8 run's weight GEMMs are kFp8 (kMxfp8) while its attention, router and logits stay
  // 16-bit (Transformer Engine runs only its Linear modules' GEMMs in FP8). Memory-bound classes
  // ignore it: their bytes already count each tensor at its own width.
  Precision precision = Precision::kBf16;
  // Kernels the work is launched as: 1, or for a grouped GEMM run as one GEMM per local expert the
  // batch count (each launch pays the launch and tile costs on its own 1/launches of the work).
  int launches = 1;
  // Of those launches, the operations the framework issues itself (from Python, or its autograd
  // engine), each paying HostCosts::launch; the rest a library makes inside one call. A catalogue
  // kernel standing for several eager operations (a per-expert loop) has as many.
  int framework_calls = 1;
};

// The launches a kernel makes beyond its framework's calls (a grouped GEMM run per expert, a
// quantization per expert): what the framework's host prices at HostCosts::library_launch.
[[nodiscard]] inline int library_launches(const Kernel& k) { return std::max(0, k.launches - k.framework_calls); }

}  // namespace trainsim
