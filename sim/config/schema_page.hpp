// The input schema as a markdown page, generated from the loaders' key tables (`trainsim schema`;
// docs/schema.md is its output).
#pragma once
#include <string>
#include <vector>

namespace trainsim {

// "platform", "model", "run", "framework".
[[nodiscard]] const std::vector<std::string>& schema_parts();
// The whole page for part "", else only that part's section (one of schema_parts()).
[[nodiscard]] std::string schema_page(const std::string& part);

}  // namespace trainsim
