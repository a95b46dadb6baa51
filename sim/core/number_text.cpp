#include "sim/core/number_text.hpp"

#include <cstdio>

namespace trainsim {

std::string format_number(double value) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}

std::string format_with(const char* format, double value) {
  char buf[96];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

}  // namespace trainsim
