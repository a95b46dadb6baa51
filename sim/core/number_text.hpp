// Numbers printed as text in tables, CSV and formulas: one format everywhere.
#pragma once
#include <string>

namespace trainsim {

// A plain number with six significant digits ("%.6g": 0.8352, 1.2e+09).
[[nodiscard]] std::string format_number(double value);
// `value` through one printf conversion of `format` ("%.4f", "%+5.1f%%"), for table columns.
[[nodiscard]] std::string format_with(const char* format, double value);

}  // namespace trainsim
