#include "sim/validate/text_format.hpp"

#include <cstdarg>
#include <cstdio>

#include "sim/core/text_list.hpp"

namespace trainsim {

std::string format_text(const char* fmt, ...) {
  char buf[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

std::string joined_names(const std::vector<std::string>& names) { return join_text(names); }

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace trainsim
