// Lists of names as text, for messages ("valid: a, b, c") and reports: one join everywhere.
#pragma once
#include <string>
#include <vector>

namespace trainsim {

// The items in order, separated by `separator` ("" for an empty list).
[[nodiscard]] std::string join_text(const std::vector<std::string>& items, const std::string& separator = ", ");

}  // namespace trainsim
