#include "sim/model/rope_ops.hpp"

#include "sim/model/kernel_builders.hpp"

namespace trainsim {
namespace {

constexpr double kRotaryFlopsPerElement = 3;  // x·cos + rotate(x)·sin: 2 multiplies + 1 add
constexpr int kEagerTensors = 2;               // q and k, each rotated by its own ops
// Bytes of the small ops on the frequencies per element, per tensor: cos, ×scale (read 4, write 4
// each), cast (4, 2), and the same for sin.
constexpr double kFreqOpBytes = 2 * (8 + 8 + 4 + 2);

}  // namespace

Kernel rope_kernel(double elements, double element_bytes, bool eager, double freq_elements, bool backward) {
  const char* name = backward ? "rope.dgrad" : "rope.fwd";
  if (!eager) return elementwise_kernel(name, elements, 1, 1, kRotaryFlopsPerElement, element_bytes);
  // Over t: forward t·cos (read 1, write 1), neg of half (0.5, 0.5), cat (1, 1), ·sin (1, 1), add (2,
  // 1), cat with the empty part (1, 1): 6.5 read, 5.5 written. Backward grad·sin (1, 1), neg (0.5,
  // 0.5), cat (1, 1), grad·cos (1, 1), add (2, 1): 5.5 read, 4.5 written.
  const double reads = backward ? 5.5 : 6.5, writes = backward ? 4.5 : 5.5;
  const int per_tensor = backward ? 7 : 12;
  Kernel k = elementwise_kernel(name, elements, reads, writes, kRotaryFlopsPerElement, element_bytes);
  if (!backward) k.bytes += kEagerTensors * freq_elements * kFreqOpBytes;
  k.launches = k.framework_calls = kEagerTensors * per_tensor;
  return k;
}

}  // namespace trainsim
