#include "sim/sweep/sweep_spec.hpp"

#include <cstdlib>
#include <sstream>

#include "sim/core/error.hpp"

namespace trainsim {
namespace {

const char* const kManifestHeader = "# trainsim sweep manifest 1: written by `trainsim sweep --emit-jobs`; read by its jobs and --merge";

void line(std::ostream& out, const std::string& key, const std::string& value) {
  if (value.find('\n') != std::string::npos) throw UserError("sweep: " + key + " '" + value + "' holds a line break");
  out << key << " " << value << "\n";
}

}  // namespace

std::string sweep_manifest_text(const SweepSpec& s) {
  std::ostringstream out;
  out << kManifestHeader << "\n";
  line(out, "run", s.run_file);
  line(out, "name", s.run_name);
  for (const auto& v : s.sets) line(out, "set", v);
  for (const auto& v : s.varies) line(out, "vary", v);
  if (s.zip) out << "zip\n";
  if (s.search) {
    out << "search\n";
    line(out, "top", std::to_string(s.top));
    for (const auto& v : s.space) line(out, "space", v);
    for (const auto& v : s.fix) line(out, "fix", v);
    if (!s.theta.empty()) line(out, "theta", s.theta);
  }
  return out.str();
}

SweepSpec parse_sweep_manifest(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string l;
  if (!std::getline(in, l) || l != kManifestHeader) throw UserError(source + ": not a trainsim sweep manifest (written by --emit-jobs)");
  SweepSpec s;
  int number = 1;
  while (std::getline(in, l)) {
    ++number;
    const size_t space = l.find(' ');
    const std::string key = l.substr(0, space), value = space == std::string::npos ? "" : l.substr(space + 1);
    if (key == "run") s.run_file = value;
    else if (key == "name") s.run_name = value;
    else if (key == "set") s.sets.push_back(value);
    else if (key == "vary") s.varies.push_back(value);
    else if (key == "zip") s.zip = true;
    else if (key == "search") s.search = true;
    else if (key == "top") s.top = std::atoi(value.c_str());
    else if (key == "space") s.space.push_back(value);
    else if (key == "fix") s.fix.push_back(value);
    else if (key == "theta") s.theta = value;
    else throw UserError(source + ":" + std::to_string(number) + ": unknown manifest line '" + l + "'");
  }
  if (s.run_file.empty()) throw UserError(source + ": the manifest names no run");
  return s;
}

}  // namespace trainsim
