#include "sim/config/precision.hpp"

namespace trainsim {

const char* to_string(Precision p) {
  switch (p) {
    case Precision::kFp32: return "fp32";
    case Precision::kTf32: return "tf32";
    case Precision::kBf16: return "bf16";
    case Precision::kFp16: return "fp16";
    case Precision::kFp8: return "fp8";
    case Precision::kMxfp8: return "mxfp8";
  }
  return "?";
}

bool parse_precision(const std::string& text, Precision* out) {
  for (Precision p : {Precision::kFp32, Precision::kTf32, Precision::kBf16, Precision::kFp16, Precision::kFp8, Precision::kMxfp8}) {
    if (text == to_string(p)) {
      *out = p;
      return true;
    }
  }
  return false;
}

double bytes_per_element(Precision p) {
  switch (p) {
    case Precision::kFp32:
    case Precision::kTf32: return 4;
    case Precision::kBf16:
    case Precision::kFp16: return 2;
    case Precision::kFp8: return 1;
    case Precision::kMxfp8: return 1.0 + 1.0 / 32;  // one 1-byte E8M0 scale per 32 elements (OCP MX v1.0)
  }
  return 2;
}

bool is_fp8(Precision p) { return p == Precision::kFp8 || p == Precision::kMxfp8; }

}  // namespace trainsim
