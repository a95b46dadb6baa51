#include "sim/model/fp8_quantize.hpp"

#include <algorithm>

#include "sim/model/kernel_builders.hpp"

namespace trainsim {
namespace {

constexpr double kSourceBytes = 2;          // the bf16 tensor being quantized
constexpr double kAmaxFlopsPerElement = 1;  // |x| and a max
constexpr double kCastFlopsPerElement = 2;  // scale and round
constexpr int kScaleLaunchesPerTensor = 3;  // current scaling: memset of the amax, amax, scale from amax

// A memory-bound kernel reading `read` and writing `written` bytes per element.
Kernel bytes_kernel(const std::string& name, double elements, double read, double written, double flops) {
  Kernel k;
  k.name = name;
  k.cls = KernelClass::kElementwise;
  k.flops = elements * flops;
  k.bytes = elements * (read + written);
  return k;
}

}  // namespace

bool quantizes(const Shard& sh) { return is_fp8(sh.precision); }

bool transposes_fp8(const Shard& sh) {
  return quantizes(sh) && sh.fp8_recipe != Fp8Recipe::kMxfp8 && !sh.fp8_any_layout;
}

int fp8_layouts(const Shard& sh) { return sh.fp8_recipe == Fp8Recipe::kMxfp8 || transposes_fp8(sh) ? 2 : 1; }

double quantized_layout_bytes(const Shard& sh) { return bytes_per_element(sh.precision); }

std::vector<Kernel> quantize_kernels(const std::string& name, double elements, const Shard& sh, bool transposed,
                                     int tensors) {
  if (!quantizes(sh)) return {};
  const bool mx = sh.fp8_recipe == Fp8Recipe::kMxfp8;
  const bool current = sh.fp8_recipe == Fp8Recipe::kCurrent;
  // MXFP8 writes both layouts from bf16 whenever the backward needs the column-wise one; tensor-scaled FP8
  // writes a transposed copy only for a card whose FP8 GEMMs are TN only.
  const double layouts = mx || transposed ? fp8_layouts(sh) : 1;
  const int one_by_one = sh.fp8_recipe == Fp8Recipe::kDelayed ? 1 : std::max(1, tensors);
  std::vector<Kernel> out;
  if (current) {
    out.push_back(bytes_kernel(name + ".amax", elements, kSourceBytes, 0, kAmaxFlopsPerElement));
    out.back().launches = kScaleLaunchesPerTensor * one_by_one;
  }
  out.push_back(bytes_kernel(name + (layouts > 1 ? ".cast_transpose" : ".cast"), elements, kSourceBytes,
                             layouts * quantized_layout_bytes(sh), kCastFlopsPerElement));
  out.back().launches = one_by_one;
  return out;
}

std::vector<Kernel> fp8_transpose_kernels(const std::string& name, double elements, const Shard& sh) {
  if (!transposes_fp8(sh)) return {};
  return {bytes_kernel(name + ".fp8_transpose", elements, 1, 1, 0)};
}

std::vector<Kernel> norm_into_fp8_gemm(Kernel norm, double elements, const Shard& sh, bool gathered) {
  if (!quantizes(sh)) return {norm};
  if (sh.fp8_recipe == Fp8Recipe::kCurrent) {
    std::vector<Kernel> out{norm};
    append(out, quantize_kernels(norm.name + ".quantize", elements, sh, !gathered));
    return out;
  }
  // The norm's 16-bit output write becomes the quantized layout(s).
  const double layouts = sh.fp8_recipe == Fp8Recipe::kMxfp8 ? 2 : 1;
  norm.bytes += elements * (layouts * quantized_layout_bytes(sh) - kSourceBytes);
  return {norm};
}

std::vector<Kernel> norm_output_transpose(const std::string& name, double elements, const Shard& sh, bool gathered) {
  // Current scaling without a gather wrote the transposed copy in the forward.
  if (sh.fp8_recipe == Fp8Recipe::kCurrent && !gathered) return {};
  return fp8_transpose_kernels(name, elements, sh);
}

std::vector<Kernel> row_parallel_output_grad(const std::string& prefix, double shard_elements, double full_elements,
                                             const Shard& sh) {
  const bool gathered = sp_gathers(sh);
  return quantize_kernels(prefix + ".output_grad", gathered ? shard_elements : full_elements, sh, !gathered);
}

std::vector<Kernel> weight_quantize_kernels(double linear_params, const Shard& sh, bool param_gather) {
  if (param_gather) return fp8_transpose_kernels("fp8_weights", linear_params, sh);
  return quantize_kernels("fp8_weights", linear_params, sh, true);
}

std::vector<Kernel> as_weight_grad(std::vector<Kernel> kernels) {
  for (Kernel& k : kernels) k.weight_grad = true;
  return kernels;
}

}  // namespace trainsim
