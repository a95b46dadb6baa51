#include "sim/model/expert_eager_ops.hpp"

#include "sim/model/kernel_builders.hpp"

namespace trainsim {
namespace {

// Reads and writes below count tensors of the kernel's `elements` elements; a bool mask is half a
// 16-bit tensor. One FLOP per element and operation (a compare, a select, a product, a sum).
constexpr double kMask = 0.5;

Kernel eager(const char* name, double elements, double reads, double writes, int operations, double element_bytes) {
  Kernel k = elementwise_kernel(name, elements, reads, writes, operations, element_bytes);
  k.launches = operations;
  k.framework_calls = operations;
  return k;
}

}  // namespace

Kernel glu_clamp_kernel(double elements, double element_bytes, bool backward) {
  if (!backward)  // clamp gate (read 1, write 1), clamp linear (1, 1), cat of both halves (2, 2)
    return eager(kGluClampForward, elements, 4, 4, 3, element_bytes);
  // Clamp from above: le (1, mask), where (mask + grad, 1). Clamp on both sides: ge (1, mask), le
  // (1, mask), and (2 masks, mask), where (mask + grad, 1). The chunk's gradient: cat (2, 2).
  const double reads = (1 + kMask + 1) + (1 + 1 + 2 * kMask + kMask + 1) + 2;
  const double writes = (kMask + 1) + (kMask + kMask + kMask + 1) + 2;
  return eager("moe_expert_clamp.dgrad", elements, reads, writes, 7, element_bytes);
}

Kernel expert_bias_kernel(double elements, int64_t experts, double element_bytes, bool backward) {
  const int e = static_cast<int>(experts);
  if (!backward)  // per expert b·p (write 1) and rows + b·p (2, 1); cat of the experts (1, 1)
    return eager("moe_expert_bias.fwd", elements, 3, 3, 2 * e + 1, element_bytes);
  // Per expert: g·p (1, 1) and its sum over rows (1), g·b (1, 1) and its sum over the hidden width
  // (1); then the rows' gradients of the experts concatenated (1, 1).
  return eager("moe_expert_bias.dgrad", elements, 5, 3, 4 * e + 1, element_bytes);
}

}  // namespace trainsim
