// validation/kernels/*.yaml -> plain structs: measured times of single kernels on one
// accelerator. `trainsim kernels` compares the platform's kernel-time model with them and fits
// the model's parameters to them. Loading is strict like every sim/config loader: unknown keys,
// a non-positive size, time or throughput, an unknown precision are ConfigErrors naming the
// file, line, key and value. A table holds any of three sections, at least one entry in all:
//
//   description: "..."                   # optional
//   accelerator: H100-SXM5-80GB          # must equal the platform preset's accelerator.name
//   precision: bf16                      # fp32 | tf32 | bf16 | fp16 | fp8
//   source: "where the numbers come from"
//   gemms:                               # dense GEMMs C[m×n] = A[m×k]·B[k×n], batch times
//     - {batch: 1, m: 4096, n: 4096, k: 256, tflops: 392.2}     # batch optional (default 1)
//     - {batch: 16, m: 512, n: 2880, k: 5760, kernels: 16, tflops: 578.6}  # kernels: launches (default
//       1): a grouped GEMM launched as one GEMM per group (batch / kernels products each)
//   attention:                           # fused causal self-attention (flash), one pass
//     - {pass: fwd, batch: 1, heads: 16, seq: 4096, head_dim: 128, causal: true, us: 149.2}
//       (optional dropout: 0.1: the probability of attention dropout inside the kernel, default 0;
//        kv_heads: 8: key/value heads, a divisor of heads, default heads; window: 128: a sliding window
//        of that many keys back from each query, as Transformer Engine's window_size (128, 0), default 0:
//        full causal)
//   streams:                             # memory-bound kernels: bytes they must move, time
//     - {op: gelu.fwd, bytes: 134217728, us: 50.3, kernels: 1}  # kernels: launches (default 1)
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "sim/config/precision.hpp"
#include "sim/model/kernel.hpp"

namespace trainsim {

enum class MeasuredKind : uint8_t { kGemm, kAttention, kStream };

// Self-attention over `seq` tokens of `batch` sequences, `heads` query heads of `head_dim`,
// causal; the forward or the backward pass; `dropout` the probability of dropping attention
// probabilities inside the kernel (0: none); `kv_heads` key/value heads (0: as many as heads);
// `window` keys each query attends back to (0: the whole causal context).
struct AttentionShape {
  int64_t batch = 1, heads = 0, seq = 0, head_dim = 0;
  bool backward = false;
  double dropout = 0;
  int64_t kv_heads = 0, window = 0;
};

struct KernelMeasurement {
  MeasuredKind kind = MeasuredKind::kGemm;
  GemmShape gemm;            // kGemm
  AttentionShape attention;  // kAttention
  std::string op;            // kStream: what ran ("layernorm.fwd")
  double bytes = 0;          // kStream: bytes read + written in HBM
  int launches = 1;          // kGemm, kStream: kernels the op launches (a kGemm's batch splits evenly over them)
  double measured_s = 0;     // kernel time (GEMMs: 2·batch·m·n·k / measured FLOP/s)
  int line = 0;              // 1-based line of the entry in its file
};

struct KernelMeasurementSet {
  std::string file;
  std::string description;
  std::string accelerator;  // the accelerator the kernels ran on (AcceleratorSpec::name)
  Precision precision = Precision::kBf16;
  std::string source;
  std::vector<KernelMeasurement> rows;  // gemms, then attention, then streams, each in file order
};

[[nodiscard]] KernelMeasurementSet load_kernel_measurements(const std::filesystem::path& file);

}  // namespace trainsim
