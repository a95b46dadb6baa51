#include "sim/model/grad_accumulation.hpp"

#include "sim/model/kernel_builders.hpp"

namespace trainsim {

Kernel grad_accumulation_kernel(const Kernel& weight_grad_gemm, double grad_bytes, double main_grad_bytes) {
  const GemmShape& g = weight_grad_gemm.gemm;
  const double elements = static_cast<double>(g.m) * static_cast<double>(g.n) * static_cast<double>(g.batch);
  // Counted in main-gradient elements: the gradient read is grad_bytes / main_grad_bytes of one.
  Kernel k = elementwise_kernel(weight_grad_gemm.name + ".accumulate", elements, 1 + grad_bytes / main_grad_bytes, 1,
                                1, main_grad_bytes);
  k.weight_grad = true;
  return k;
}

std::vector<Kernel> with_unfused_grad_accumulation(const std::vector<Kernel>& backward, double grad_bytes,
                                                   double main_grad_bytes) {
  std::vector<Kernel> out;
  out.reserve(backward.size() * 2);
  for (const Kernel& k : backward) {
    out.push_back(k);
    if (k.weight_grad && k.cls == KernelClass::kGemm)
      out.push_back(grad_accumulation_kernel(k, grad_bytes, main_grad_bytes));
  }
  return out;
}

}  // namespace trainsim
