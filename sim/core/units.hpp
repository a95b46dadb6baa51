// One internal unit system for all of trainsim: bytes, seconds, FLOP, FLOP/s, bytes/s.
// Quantities are plain doubles with a documenting alias; YAML text like "400GBps" is
// converted at the config edge by parse_quantity and printed back by format_quantity.
#pragma once
#include <stdexcept>
#include <string>

namespace trainsim {

using Bytes = double;           // bytes
using Seconds = double;         // seconds
using Flops = double;           // floating-point operations (FLOP)
using FlopsPerSecond = double;  // FLOP/s
using BytesPerSecond = double;  // bytes/s

constexpr Bytes kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;  // 2^30 bytes

enum class Quantity {
  kBytes,      // "80GiB", "40MB", "512KiB", "1024B"
  kBandwidth,  // "400GBps" (bytes/s), "25Gbps" (bits/s), "900GB/s"
  kTime,       // "1.5us", "2ms", "3s", "100ns"
  kFlopRate,   // "989TFLOPS", "312TFLOP/s"
  kFlops,      // "1.2PFLOP", "3e15FLOP"
};

// Parses "<number><unit>" (spaces allowed between). Decimal prefixes k/K, M, G, T, P, E
// are powers of 1000; binary prefixes Ki, Mi, Gi, Ti, Pi are powers of 1024.
// Throws std::invalid_argument whose what() says which units are valid (the number must be
// decimal: no hexadecimal, inf or nan), or QuantityOverflow when the number is finite but not
// once scaled by its unit ("1e308PiB").
class QuantityOverflow : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};
[[nodiscard]] double parse_quantity(const std::string& text, Quantity kind);

// Human-readable text that parse_quantity reads back to the same value within 1e-9
// relative ("80GiB" for bytes, "400GBps", "1.5us", "989TFLOPS", "3.2PFLOP").
[[nodiscard]] std::string format_quantity(double value, Quantity kind);

// The units accepted for a kind, for error messages ("B, KB, KiB, MB, MiB, ...").
[[nodiscard]] std::string valid_units(Quantity kind);

}  // namespace trainsim
