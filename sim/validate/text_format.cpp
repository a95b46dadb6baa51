#include "sim/validate/text_format.hpp"

#include <cstdarg>
#include <cstdio>

namespace trainsim {

std::string format_text(const char* fmt, ...) {
  char buf[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

}  // namespace trainsim
