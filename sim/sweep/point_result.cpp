#include "sim/sweep/point_result.hpp"

#include <map>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/number_text.hpp"

namespace trainsim {
namespace {

const char* const kHeader = "trainsim sweep point result 1";

std::string exact(double v) { return format_with("%.17g", v); }

double number(const std::map<std::string, std::string>& fields, const std::string& key, const std::string& source) {
  const auto it = fields.find(key);
  if (it == fields.end()) throw UserError(source + ": not a complete sweep point result (no '" + key + "' line)");
  try {
    size_t used = 0;
    const double v = std::stod(it->second, &used);
    if (used == it->second.size()) return v;
  } catch (const std::exception&) {
  }
  throw UserError(source + ": '" + key + "' is not a number (got '" + it->second + "')");
}

PointStatus status_of(const std::string& text, const std::string& source) {
  for (PointStatus s : {PointStatus::kReplayed, PointStatus::kOutOfMemory, PointStatus::kNoStrategy})
    if (text == to_string(s)) return s;
  throw UserError(source + ": unknown point status '" + text + "'; valid: replayed, out-of-memory, no-strategy");
}

}  // namespace

const char* to_string(PointStatus s) {
  switch (s) {
    case PointStatus::kReplayed: return "replayed";
    case PointStatus::kOutOfMemory: return "out-of-memory";
    case PointStatus::kNoStrategy: return "no-strategy";
  }
  return "?";
}

std::string point_result_text(const PointResult& r) {
  std::ostringstream out;
  out << kHeader << "\npoint " << r.point.index << "\n";
  for (const auto& [key, value] : r.point.values) out << "value " << key << "=" << value << "\n";
  out << "status " << to_string(r.status) << "\nstrategy " << r.strategy << "\niteration_s " << exact(r.iteration_time)
      << "\ntokens_per_s " << exact(r.tokens_per_s) << "\nmfu " << exact(r.mfu) << "\nmemory_bytes " << exact(r.memory)
      << "\ncapacity_bytes " << exact(r.capacity) << "\ncandidates " << r.candidates << "\nterms";
  for (double t : r.terms) out << " " << exact(t);
  out << "\n";
  return out.str();
}

PointResult parse_point_result(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kHeader) throw UserError(source + ": not a trainsim sweep point result");
  std::map<std::string, std::string> fields;
  PointResult r;
  while (std::getline(in, line)) {
    const size_t space = line.find(' ');
    const std::string key = line.substr(0, space), value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "value") {
      const size_t eq = value.find('=');
      r.point.values.emplace_back(value.substr(0, eq), eq == std::string::npos ? "" : value.substr(eq + 1));
    } else {
      fields[key] = value;
    }
  }
  r.point.index = static_cast<int>(number(fields, "point", source));
  r.status = status_of(fields["status"], source);
  r.strategy = fields["strategy"];
  r.iteration_time = number(fields, "iteration_s", source);
  r.tokens_per_s = number(fields, "tokens_per_s", source);
  r.mfu = number(fields, "mfu", source);
  r.memory = number(fields, "memory_bytes", source);
  r.capacity = number(fields, "capacity_bytes", source);
  r.candidates = static_cast<int>(number(fields, "candidates", source));
  std::istringstream terms(fields["terms"]);
  for (double& t : r.terms)
    if (!(terms >> t)) throw UserError(source + ": 'terms' needs " + std::to_string(kSweepTerms) + " numbers");
  return r;
}

}  // namespace trainsim
