// The quantization kernels Transformer Engine runs around 8-bit GEMMs (fp8 / mxfp8 runs), as
// memory-bound kernels of the operator catalogue. Per element of the quantized tensor:
//   cast             delayed: reads 2 B (bf16), writes 1 B per layout, amax recorded on the fly;
//                    current: an amax pass first (reads 2 B), then the cast;
//                    mxfp8:   reads 2 B, writes 1 + 1/32 B (E8M0 scale per 32) per layout.
//   layouts          Hopper FP8 GEMMs read both operands row-wise (TN), so the backward's GEMMs need
//                    column-wise (transposed) copies: a fused cast+transpose writes both. A tensor that
//                    sequence parallelism all-gathers is cast row-wise only, gathered in FP8, and
//                    transposed after the gather (TE: all-gather of transposed FP8 is not supported).
//   fp8 transpose    reads 1 B, writes 1 B (delayed/current); none under mxfp8, whose column-wise copy
//                    is quantized from bf16 together with the row-wise one.
//   any layout       on a card whose FP8 GEMMs read operands in any layout (Blackwell:
//                    AcceleratorSpec::fp8_gemm_any_layout) delayed and current scaling make no
//                    column-wise copy at all: one FP8 copy serves every GEMM, so casts write one layout
//                    and nothing is transposed (TE quantizer.cpp, Float8Quantizer and
//                    Float8CurrentScalingQuantizer::create_tensor: a transpose only when
//                    !nvte_is_non_tn_fp8_gemm_supported(); NVIDIA/TransformerEngine at commit
//                    ad3f651f1dad676dac5109ac20d525f54650d88d). MXFP8 keeps both layouts there.
// Sources: NVIDIA/TransformerEngine docs/features/low_precision_training (performance_considerations
// "Handling transposes", fp8_current_scaling "Performance analysis": two reads per quantization,
// fp8_delayed_scaling: one read, mxfp8: both layouts from high precision) and its PyTorch modules
// (Linear: fp8_cast_transpose_fused of the input; LayerNormLinear: the norm writes FP8, fp8_transpose
// of its output in the backward; grad_output_preprocess: cast+transpose of the output gradient).
#pragma once
#include <string>
#include <vector>

#include "sim/model/kernel.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

// Whether a shard's weight GEMMs run in 8 bits (and so need the kernels below).
[[nodiscard]] bool quantizes(const Shard& sh);
// Whether the column-wise copy of a tensor the backward reads is made by transposing its FP8 data:
// tensor-scaled FP8 (delayed, current) on a card whose FP8 GEMMs are TN only.
[[nodiscard]] bool transposes_fp8(const Shard& sh);
// The FP8 layouts kept of a tensor read both ways (a Linear weight, a saved input): 2 under mxfp8 and
// when transposes_fp8, 1 on a card whose FP8 GEMMs take any layout (tensor-scaled FP8 there).
[[nodiscard]] int fp8_layouts(const Shard& sh);

// Kernels quantizing `elements` bf16 values for an 8-bit GEMM operand; `transposed` also writes the
// column-wise copy (false for a tensor all-gathered before its GEMM). Empty unless quantizes(sh).
// Launches: current scaling computes each tensor's scale on the device before the cast, as a memset of
// the amax, the amax kernel and a one-thread scale kernel (3 launches), then the cast (1).
// `tensors` > 1: the operand is that many tensors quantized in one call (TE GroupedLinear's
// split_quantize of the local experts' inputs or output gradients): delayed scaling casts them all in
// one multi-tensor kernel; current scaling and MXFP8 quantize them one by one (4 and 1 launches per
// tensor), the bytes being the same. Sources: NVIDIA/TransformerEngine
// transformer_engine/pytorch/csrc/extensions/cast.cpp (split_quantize, multi_tensor_quantize_impl:
// "only have fused kernel for FP8 delayed scaling", else "Quantize kernels individually"),
// pytorch/csrc/quantizer.cpp (Float8CurrentScalingQuantizer::quantize_impl: compute amax, compute scale
// from amax, quantize) and common/recipe/current_scaling.cu (cudaMemsetAsync of the amax, amax kernel,
// compute_scale_from_amax_kernel<<<1, 1>>>), 2025 versions.
[[nodiscard]] std::vector<Kernel> quantize_kernels(const std::string& name, double elements, const Shard& sh,
                                                   bool transposed, int tensors = 1);
// The FP8 transpose of an already quantized tensor; empty under mxfp8, on an any-layout card, or unless
// quantizes(sh).
[[nodiscard]] std::vector<Kernel> fp8_transpose_kernels(const std::string& name, double elements, const Shard& sh);

// A norm feeding a column-parallel 8-bit GEMM (TE LayerNormLinear / LayerNormMLP), forward: under
// delayed scaling the norm writes its output in FP8 itself (1 B instead of 2; row-wise, transposed in
// the backward), under mxfp8 both MX layouts; under current scaling it writes bf16 and the amax pass
// and cast follow (cast+transpose unless `gathered`). Returns the norm and those kernels.
[[nodiscard]] std::vector<Kernel> norm_into_fp8_gemm(Kernel norm, double elements, const Shard& sh, bool gathered);
// Its backward part: the transpose of the saved FP8 norm output (`elements` after any gather) that the
// weight-gradient GEMM reads, where the forward did not write one.
[[nodiscard]] std::vector<Kernel> norm_output_transpose(const std::string& name, double elements, const Shard& sh,
                                                        bool gathered);

// The output gradient of a row-parallel 8-bit GEMM (attention projection, FFN fc2), before its
// input-gradient GEMM: under sequence parallelism it is cast row-wise on this rank's shard
// (`shard_elements`) and all-gathered in FP8, else cast+transposed whole (`full_elements`).
[[nodiscard]] std::vector<Kernel> row_parallel_output_grad(const std::string& prefix, double shard_elements,
                                                           double full_elements, const Shard& sh);
// `kernels` marked as weight-gradient work: they feed only weight-gradient GEMMs (deferred with them).
[[nodiscard]] std::vector<Kernel> as_weight_grad(std::vector<Kernel> kernels);

// Once per iteration (Megatron marks each step's first micro-batch; TE re-quantizes and caches its
// weights then): the FP8 copies of this device's `linear_params` Linear weights and their transposes.
// With --fp8-param-gather the weights already are FP8 (cast by the optimizer step and all-gathered in
// FP8), so only the transposes remain. Empty unless quantizes(sh).
[[nodiscard]] std::vector<Kernel> weight_quantize_kernels(double linear_params, const Shard& sh, bool param_gather);

// Bytes per element of the quantized copies a recipe writes for one layout (1, or 33/32 for mxfp8).
[[nodiscard]] double quantized_layout_bytes(const Shard& sh);

}  // namespace trainsim
