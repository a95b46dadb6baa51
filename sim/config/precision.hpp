// Numeric precision of a run's math, and the bytes one element takes.
#pragma once
#include <string>

namespace trainsim {

enum class Precision { kFp32, kTf32, kBf16, kFp16, kFp8 };

[[nodiscard]] const char* to_string(Precision p);
// Returns false when text is not one of: fp32, tf32, bf16, fp16, fp8.
[[nodiscard]] bool parse_precision(const std::string& text, Precision* out);
// Bytes per element of activations/weights held in this precision (fp8 weights are kept
// in bf16 by today's frameworks; the caller decides which precision a tensor uses).
[[nodiscard]] double bytes_per_element(Precision p);

}  // namespace trainsim
