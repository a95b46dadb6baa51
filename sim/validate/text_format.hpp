// printf-style formatting into a std::string, for the report tables (lines up to 1 KiB).
#pragma once
#include <string>
#include <vector>

namespace trainsim {

[[nodiscard]] std::string format_text(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// "a, b, c": names for "valid: ..." messages.
[[nodiscard]] std::string joined_names(const std::vector<std::string>& names);
// One CSV field (RFC 4180): as it is, or in double quotes with inner quotes doubled when it holds
// a comma, a quote or a line break.
[[nodiscard]] std::string csv_field(const std::string& text);

}  // namespace trainsim
