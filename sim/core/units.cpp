#include "sim/core/units.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

namespace trainsim {
namespace {

struct Suffix {
  const char* text;
  double factor;
};

// Longest suffixes first so "GiB" is tried before "B".
const std::vector<Suffix>& suffixes(Quantity kind) {
  static const std::vector<Suffix> bytes = {
      {"PiB", 1125899906842624.0}, {"TiB", 1099511627776.0}, {"GiB", 1073741824.0},
      {"MiB", 1048576.0},          {"KiB", 1024.0},          {"PB", 1e15},
      {"TB", 1e12},                {"GB", 1e9},              {"MB", 1e6},
      {"KB", 1e3},                 {"kB", 1e3},              {"B", 1.0}};
  static const std::vector<Suffix> bandwidth = {
      {"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"KB/s", 1e3}, {"B/s", 1.0},
      {"TBps", 1e12}, {"GBps", 1e9}, {"MBps", 1e6}, {"KBps", 1e3}, {"Bps", 1.0},
      {"Tbps", 1e12 / 8}, {"Gbps", 1e9 / 8}, {"Mbps", 1e6 / 8}, {"Kbps", 1e3 / 8}, {"bps", 1.0 / 8}};
  static const std::vector<Suffix> time = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3},
                                           {"min", 60.0}, {"s", 1.0}};
  static const std::vector<Suffix> rate = {
      {"PFLOP/s", 1e15}, {"TFLOP/s", 1e12}, {"GFLOP/s", 1e9}, {"FLOP/s", 1.0},
      {"PFLOPS", 1e15},  {"TFLOPS", 1e12},  {"GFLOPS", 1e9},  {"FLOPS", 1.0}};
  static const std::vector<Suffix> flops = {
      {"EFLOP", 1e18}, {"PFLOP", 1e15}, {"TFLOP", 1e12}, {"GFLOP", 1e9}, {"FLOP", 1.0}};
  switch (kind) {
    case Quantity::kBytes: return bytes;
    case Quantity::kBandwidth: return bandwidth;
    case Quantity::kTime: return time;
    case Quantity::kFlopRate: return rate;
    case Quantity::kFlops: return flops;
  }
  return bytes;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

}  // namespace

std::string valid_units(Quantity kind) {
  std::string out;
  for (const auto& s : suffixes(kind)) out += (out.empty() ? "" : ", ") + std::string(s.text);
  return out;
}

double parse_quantity(const std::string& raw, Quantity kind) {
  const std::string text = trim(raw);
  for (const auto& suffix : suffixes(kind)) {
    if (!ends_with(text, suffix.text)) continue;
    const std::string number = trim(text.substr(0, text.size() - std::string(suffix.text).size()));
    // Decimal only: std::stod would also read hexadecimal ("0x10"), "inf" and "nan".
    if (number.empty() || number.find_first_not_of("0123456789.eE+-") != std::string::npos) break;
    size_t used = 0;
    double value = 0;
    try {
      value = std::stod(number, &used);
    } catch (const std::exception&) {
      break;
    }
    if (used != number.size() || !std::isfinite(value) || value < 0) break;
    const double scaled = value * suffix.factor;
    if (!std::isfinite(scaled)) throw QuantityOverflow("'" + text + "' overflows once its unit is applied");
    return scaled;
  }
  throw std::invalid_argument("expected a non-negative number followed by one of: " + valid_units(kind));
}

std::string format_quantity(double value, Quantity kind) {
  // Pick the largest unit that leaves a value >= 1; %.6g keeps the text short and exact enough.
  static const std::vector<std::pair<const char*, double>> bytes = {
      {"TiB", 1099511627776.0}, {"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"KiB", 1024.0}, {"B", 1}};
  static const std::vector<std::pair<const char*, double>> bw = {
      {"TBps", 1e12}, {"GBps", 1e9}, {"MBps", 1e6}, {"KBps", 1e3}, {"Bps", 1}};
  static const std::vector<std::pair<const char*, double>> time = {
      {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
  static const std::vector<std::pair<const char*, double>> rate = {
      {"PFLOPS", 1e15}, {"TFLOPS", 1e12}, {"GFLOPS", 1e9}, {"FLOPS", 1}};
  static const std::vector<std::pair<const char*, double>> flops = {
      {"EFLOP", 1e18}, {"PFLOP", 1e15}, {"TFLOP", 1e12}, {"GFLOP", 1e9}, {"FLOP", 1}};
  const auto& table = kind == Quantity::kBytes       ? bytes
                      : kind == Quantity::kBandwidth ? bw
                      : kind == Quantity::kTime      ? time
                      : kind == Quantity::kFlopRate  ? rate
                                                     : flops;
  const auto* chosen = &table.back();
  for (const auto& unit : table) {
    if (value >= unit.second) {
      chosen = &unit;
      break;
    }
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g%s", value / chosen->second, chosen->first);
  return buf;
}

}  // namespace trainsim
