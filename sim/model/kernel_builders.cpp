#include "sim/model/kernel_builders.hpp"

#include <utility>

#include "sim/model/shard.hpp"

namespace trainsim {
namespace {
double norm_forward_flops_per_element(NormKind norm) { return norm == NormKind::kLayerNorm ? 8 : 5; }
}  // namespace

Kernel gemm_kernel(std::string name, const GemmShape& shape, Precision precision, bool weight_grad) {
  Kernel k;
  k.name = std::move(name);
  k.cls = KernelClass::kGemm;
  k.gemm = shape;
  k.precision = precision;
  const double m = static_cast<double>(shape.m);
  const double n = static_cast<double>(shape.n);
  const double kk = static_cast<double>(shape.k);
  const double batch = static_cast<double>(shape.batch);
  k.flops = 2.0 * m * n * kk * batch;
  k.bytes = ((m * kk + kk * n) * bytes_per_element(precision) + m * n * activation_element_bytes(precision)) * batch;
  k.weight_grad = weight_grad;
  return k;
}

Kernel elementwise_kernel(std::string name, double elements, double tensors_read, double tensors_written,
                          double flops_per_element, double element_bytes) {
  Kernel k;
  k.name = std::move(name);
  k.cls = KernelClass::kElementwise;
  k.flops = elements * flops_per_element;
  k.bytes = elements * (tensors_read + tensors_written) * element_bytes;
  return k;
}

Kernel norm_forward_kernel(std::string name, NormKind norm, double elements, double element_bytes) {
  return elementwise_kernel(std::move(name), elements, 1, 1, norm_forward_flops_per_element(norm),
                            element_bytes);
}

Kernel norm_backward_kernel(std::string name, NormKind norm, double elements, double element_bytes) {
  return elementwise_kernel(std::move(name), elements, 2, 1, 2 * norm_forward_flops_per_element(norm), element_bytes);
}

namespace {
constexpr double kHiddenMaskBytes = 1;                  // a dropout mask keeps one byte per element
constexpr double kResidualFlopsPerElement = 1;    // one add
constexpr double kDropoutFlopsPerElement = 1;     // one multiply by mask / (1 - p)
}  // namespace

Kernel residual_forward_kernel(std::string name, double elements, bool hidden_dropout, double element_bytes) {
  const double mask = hidden_dropout ? kHiddenMaskBytes / element_bytes : 0;
  return elementwise_kernel(std::move(name), elements, 2, 1 + mask, kResidualFlopsPerElement, element_bytes);
}

Kernel residual_backward_kernel(std::string name, double elements, double element_bytes) {
  return elementwise_kernel(std::move(name), elements, 2, 1, kResidualFlopsPerElement, element_bytes);
}

Kernel dropout_backward_kernel(std::string name, double elements, double element_bytes) {
  return elementwise_kernel(std::move(name), elements, 1 + kHiddenMaskBytes / element_bytes, 1, kDropoutFlopsPerElement,
                            element_bytes);
}

Flops total_flops(const std::vector<Kernel>& kernels) {
  Flops sum = 0;
  for (const Kernel& k : kernels) sum += k.flops;
  return sum;
}

Flops total_flops(const std::vector<Kernel>& kernels, KernelClass cls) {
  Flops sum = 0;
  for (const Kernel& k : kernels) {
    if (k.cls == cls) sum += k.flops;
  }
  return sum;
}

Bytes total_bytes(const std::vector<Kernel>& kernels) {
  Bytes sum = 0;
  for (const Kernel& k : kernels) sum += k.bytes;
  return sum;
}

void append(std::vector<Kernel>& out, const std::vector<Kernel>& more) {
  out.insert(out.end(), more.begin(), more.end());
}

}  // namespace trainsim
