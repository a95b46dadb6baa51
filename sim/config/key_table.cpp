#include "sim/config/key_table.hpp"

#include <cmath>
#include <utility>
#include <vector>

namespace trainsim {

std::string quantity_text(double value, Quantity kind) {
  if (value == 0) {
    switch (kind) {
      case Quantity::kBytes: return "0B";
      case Quantity::kBandwidth: return "0Bps";
      case Quantity::kTime: return "0s";
      case Quantity::kFlopRate: return "0FLOPS";
      case Quantity::kFlops: return "0FLOP";
    }
  }
  if (kind == Quantity::kBytes) {
    static const std::vector<std::pair<const char*, double>> units = {
        {"TiB", 1099511627776.0}, {"TB", 1e12}, {"GiB", 1073741824.0}, {"GB", 1e9},
        {"MiB", 1048576.0},       {"MB", 1e6},  {"KiB", 1024.0},       {"KB", 1e3}};
    for (const auto& [name, size] : units) {
      const double n = value / size;
      if (n >= 1 && n == std::floor(n) && n < 1e15) return std::to_string(static_cast<long long>(n)) + name;
    }
  }
  return format_quantity(value, kind);
}

}  // namespace trainsim
