// How an FP8 run quantizes (a run's `fp8:` section; meaningful only with precision fp8 or mxfp8).
// Transformer Engine's recipes, as Megatron-Core/NeMo select them:
//   delayed  DelayedScaling (TE's default, NeMo 24.07's fp8 hybrid): each tensor's scale comes from
//            an amax history, so a quantization reads the bf16 tensor once and the amax is recorded
//            on the fly; a norm before a column-parallel GEMM writes FP8 itself (LayerNormLinear).
//   current  Float8CurrentScaling (NeMo/Megatron-Bridge "FP8-CS"): the scale comes from the tensor's
//            own amax, so a quantization reads it twice (an amax pass, then the cast) and a norm
//            cannot emit FP8 directly (TE docs, low_precision_training/fp8_current_scaling).
//   mxfp8    MXFP8BlockScaling (Blackwell): one E8M0 scale per 32 elements; row-wise and
//            column-wise copies are both quantized from the bf16 tensor, so no FP8 transpose runs.
// On Hopper an FP8 GEMM reads both operands row-wise (TN), so the backward needs column-wise
// (transposed) FP8 copies: a delayed/current cast writes the FP8 tensor and its transpose. On a card
// whose FP8 GEMMs take any layout (Blackwell, AcceleratorSpec::fp8_gemm_any_layout) one copy serves
// every GEMM (sim/model/fp8_quantize.hpp).
#pragma once

namespace trainsim {

enum class Fp8Recipe { kDelayed, kCurrent, kMxfp8 };

struct Fp8Spec {
  Fp8Recipe recipe = Fp8Recipe::kDelayed;  // mxfp8 for precision mxfp8 (the only recipe it has)
  // Megatron --fp8-param-gather: the model keeps its weights in FP8 (1 byte) instead of bf16 and the
  // distributed optimizer all-gathers them in FP8; the cast happens once, after the optimizer step.
  bool param_gather = false;
};

}  // namespace trainsim
