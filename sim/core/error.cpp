#include "sim/core/error.hpp"

namespace trainsim {
namespace {
std::string compose(const std::string& file, int line, const std::string& key_path,
                    const std::string& problem, const std::string& value, const std::string& expected) {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  out += ": " + key_path + ": " + problem;
  if (!value.empty()) out += " (got '" + value + "')";
  if (!expected.empty()) out += "; valid: " + expected;
  return out;
}
}  // namespace

ConfigError::ConfigError(std::string file, int line, std::string key_path, std::string problem,
                         std::string value, std::string expected)
    : UserError(compose(file, line, key_path, problem, value, expected)),
      file_(std::move(file)),
      line_(line),
      key_path_(std::move(key_path)) {}

}  // namespace trainsim
