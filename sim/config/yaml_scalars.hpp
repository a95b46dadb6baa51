// Scalars as the writers (run_writer, model_writer) put them into YAML that the loaders read back
// exactly: strings double-quoted, booleans as true/false, enums by their YAML name, numbers with all
// 17 significant digits (a double survives the round trip).
#pragma once
#include <cstdio>
#include <string>

#include "sim/config/yaml_reader.hpp"

namespace trainsim {

// A string as a double-quoted YAML scalar (backslashes and quotes escaped).
inline std::string yaml_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

inline const char* yaml_bool(bool b) { return b ? "true" : "false"; }

// The YAML name of `value` in `names`; "?" when it has none (a value no loader accepts back).
template <typename E>
const char* yaml_name(const EnumNames<E>& names, E value) {
  for (const auto& entry : names)
    if (entry.second == value) return entry.first;
  return "?";
}

// %.17g: enough digits that reading the text back gives the same double.
inline std::string yaml_exact(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace trainsim
