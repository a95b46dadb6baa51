// printf-style formatting into a std::string, for the report tables (lines up to 1 KiB).
#pragma once
#include <string>
#include <vector>

namespace trainsim {

[[nodiscard]] std::string format_text(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// "a, b, c": names for "valid: ..." messages.
[[nodiscard]] std::string joined_names(const std::vector<std::string>& names);

}  // namespace trainsim
