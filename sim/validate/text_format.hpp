// printf-style formatting into a std::string, for the report tables (lines up to 1 KiB).
#pragma once
#include <string>

namespace trainsim {

[[nodiscard]] std::string format_text(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace trainsim
