// Numeric precision of a run's math, and the bytes one element takes.
#pragma once
#include <string>

namespace trainsim {

// kMxfp8: FP8 (E4M3/E5M2) elements with one shared power-of-two (E8M0) scale per block of 32
// (OCP Microscaling Formats (MX) Specification v1.0, sections 5.1 and 5.3); Blackwell's tensor cores
// multiply it natively, at the FP8 rate; Hopper's cannot (Transformer Engine offers its MXFP8 recipe
// only on compute capability 10.0 and newer). A platform lists an `mxfp8` peak only where the card
// has block-scaled tensor cores, and no other precision stands in for it.
enum class Precision { kFp32, kTf32, kBf16, kFp16, kFp8, kMxfp8 };

[[nodiscard]] const char* to_string(Precision p);
// Returns false when text is not one of: fp32, tf32, bf16, fp16, fp8, mxfp8.
[[nodiscard]] bool parse_precision(const std::string& text, Precision* out);
// Bytes per element of activations/weights held in this precision (fp8 weights are kept
// in bf16 by today's frameworks; the caller decides which precision a tensor uses).
[[nodiscard]] double bytes_per_element(Precision p);
// fp8 and mxfp8: GEMM operands in 8 bits, activations and weights kept in bf16 around them.
[[nodiscard]] bool is_fp8(Precision p);

}  // namespace trainsim
