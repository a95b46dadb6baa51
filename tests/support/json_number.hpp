// The number after `"key": ` in a JSON text, searched from `from`; the key must be there.
#pragma once
#include <catch2/catch.hpp>
#include <string>

inline double number_after(const std::string& text, const std::string& key, size_t from = 0) {
  const size_t at = text.find("\"" + key + "\": ", from);
  REQUIRE(at != std::string::npos);
  return std::stod(text.substr(at + key.size() + 4));
}
