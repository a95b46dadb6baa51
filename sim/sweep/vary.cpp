#include "sim/sweep/vary.hpp"

#include "sim/core/error.hpp"

namespace trainsim {
namespace {

[[noreturn]] void bad_vary(const std::string& arg, const std::string& problem) {
  throw UserError("--vary '" + arg + "': " + problem + "; valid: KEY=V1,V2,... with a key --set accepts, e.g. " +
                  "--vary platform.tiers.1.bandwidth=25GBps,50GBps,100GBps");
}

// The comma-separated values of `list`, keeping commas nested in brackets inside a value.
std::vector<std::string> split_values(const std::string& arg, const std::string& list) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  for (char c : list) {
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (depth < 0) bad_vary(arg, "a closing bracket without its opening one");
    if (c == ',' && depth == 0) {
      if (current.empty()) bad_vary(arg, "empty value in the list");
      out.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  if (depth != 0) bad_vary(arg, "an opening bracket without its closing one");
  if (current.empty()) bad_vary(arg, "empty value in the list");
  out.push_back(current);
  return out;
}

}  // namespace

VaryAxis parse_vary(const std::string& arg) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos) bad_vary(arg, "no '=' between the key and its values");
  VaryAxis axis;
  axis.key = arg.substr(0, eq);
  if (axis.key.empty()) bad_vary(arg, "empty key");
  if (axis.key.find_first_of(" \t\n") != std::string::npos) bad_vary(arg, "a key holds no spaces");
  if (arg.find('\n') != std::string::npos) bad_vary(arg, "a value holds no line breaks");
  axis.values = split_values(arg, arg.substr(eq + 1));
  return axis;
}

std::vector<VaryAxis> parse_varies(const std::vector<std::string>& args) {
  std::vector<VaryAxis> out;
  for (const std::string& arg : args) {
    VaryAxis axis = parse_vary(arg);
    for (const VaryAxis& seen : out)
      if (seen.key == axis.key)
        throw UserError("--vary '" + arg + "': key '" + axis.key + "' is varied twice; give all its values in one --vary");
    out.push_back(std::move(axis));
  }
  return out;
}

}  // namespace trainsim
