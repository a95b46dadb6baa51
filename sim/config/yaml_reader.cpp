#include "sim/config/yaml_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "sim/core/text_list.hpp"

namespace trainsim {
namespace {

// Strict decimal integer: optional sign, digits only ("4", "-1"; not "4.0", "1e3", "0x10").
bool parse_integer(const std::string& text, long long* out) {
  size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  if (i == text.size()) return false;
  for (size_t k = i; k < text.size(); ++k) {
    if (text[k] < '0' || text[k] > '9') return false;
  }
  errno = 0;
  *out = std::strtoll(text.c_str(), nullptr, 10);
  return errno == 0;
}

// A finite plain number ("0.8", "1", "2.5e-3"), nothing after it.
bool parse_plain_number(const std::string& text, double* out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

}  // namespace

std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

std::string int_range_text(int lo, int hi) {
  if (hi == INT_MAX) return "an integer >= " + std::to_string(lo);
  return "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
}

const char* quantity_name(Quantity kind) {
  switch (kind) {
    case Quantity::kBytes: return "a byte size";
    case Quantity::kBandwidth: return "a bandwidth";
    case Quantity::kTime: return "a duration";
    case Quantity::kFlopRate: return "a FLOP rate";
    case Quantity::kFlops: return "a FLOP count";
  }
  return "a quantity";
}

bool Bounds::contains(double x) const {
  const bool above_lo = lo_open ? x > lo : x >= lo;
  const bool below_hi = hi_open ? x < hi : x <= hi;
  return above_lo && below_hi;
}

std::string Bounds::text() const {
  if (std::isinf(hi)) return std::string("a number ") + (lo_open ? "> " : ">= ") + number_text(lo);
  return std::string("a number in ") + (lo_open ? "(" : "[") + number_text(lo) + ", " + number_text(hi) +
         (hi_open ? ")" : "]");
}

Bounds positive() { return {0, true, HUGE_VAL, true}; }
Bounds at_least(double lo) { return {lo, false, HUGE_VAL, true}; }
Bounds unit_fraction() { return {0, true, 1, false}; }
Bounds fraction_below_one() { return {0, false, 1, true}; }

std::string join_names(const std::vector<std::string>& names) { return join_text(names); }

MapReader::MapReader(YamlSource& source, YAML::Node node, std::string path, std::vector<std::string> valid_keys)
    : source_(&source), node_(std::move(node)), path_(std::move(path)), valid_keys_(std::move(valid_keys)) {
  if (!node_.IsMap()) {
    source_->fail(path_, node_, "expected a map", describe_node(node_), "a map with keys: " + join_names(valid_keys_));
  }
  source_->remember(path_, source_->locate(path_, node_));
  check_keys();
}

void MapReader::check_keys() const {
  std::vector<std::string> seen;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const std::string key = it->first.IsScalar() ? it->first.Scalar() : describe_node(it->first);
    if (std::find(valid_keys_.begin(), valid_keys_.end(), key) == valid_keys_.end()) {
      source_->fail(key_path(key), it->first, "unknown key", key, join_names(valid_keys_));
    }
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      source_->fail(key_path(key), it->first, "key appears twice in this map", key, "each key once");
    }
    seen.push_back(key);
  }
}

bool MapReader::has(const std::string& key) const {
  const YAML::Node& self = node_;
  return self[key].IsDefined();
}

std::string MapReader::text_of(const std::string& key) const {
  const YAML::Node& self = node_;
  return describe_node(self[key]);
}

void MapReader::fail(const std::string& key, const std::string& problem, const std::string& value,
                     const std::string& expected) const {
  source_->fail(key_path(key), position_of(key), problem, value, expected);
}

YAML::Node MapReader::position_of(const std::string& key) const {
  const YAML::Node& self = node_;
  const YAML::Node v = self[key];
  if (v.IsDefined() && !v.IsNull()) return v;
  // An empty value (`model:`) has the position of whatever follows it, often the next line: the
  // key's own line is where the user wrote it.
  for (auto it = node_.begin(); it != node_.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->first;
  return node_;
}

YAML::Node MapReader::value(const std::string& key, Need need, const std::string& expected) {
  const YAML::Node& self = node_;
  YAML::Node v = self[key];
  if (!v.IsDefined()) {
    if (need == Need::kRequired) fail(key, "missing required key", "", expected);
    return v;
  }
  source_->remember(key_path(key), source_->locate(key_path(key), v));
  return v;
}

std::optional<std::string> MapReader::scalar(const std::string& key, Need need, const std::string& expected) {
  const YAML::Node v = value(key, need, expected);
  if (!v.IsDefined()) return std::nullopt;
  if (!v.IsScalar() || v.Scalar().empty()) fail(key, "expected a single value", describe_node(v), expected);
  return v.Scalar();
}

bool MapReader::read_string(const std::string& key, std::string* out, Need need, bool allow_empty) {
  if (allow_empty && has(key)) {
    const YAML::Node& self = node_;
    if (self[key].IsScalar() && self[key].Scalar().empty()) {
      *out = "";
      return true;
    }
  }
  const auto text = scalar(key, need, "a non-empty string");
  if (text) *out = *text;
  return text.has_value();
}

bool MapReader::read_int(const std::string& key, int* out, Need need, int lo, int hi, const char* below_lo) {
  const std::string expected = int_range_text(lo, hi);
  const auto text = scalar(key, need, expected);
  if (!text) return false;
  long long v = 0;
  if (!parse_integer(*text, &v)) fail(key, "expected a whole number", *text, expected);
  if (v < lo && below_lo != nullptr) fail(key, below_lo, *text, expected);
  if (v < lo || v > hi) fail(key, "out of range", *text, expected);
  *out = static_cast<int>(v);
  return true;
}

bool MapReader::read_bool(const std::string& key, bool* out, Need need) {
  const auto text = scalar(key, need, "true, false");
  if (!text) return false;
  if (*text == "true" || *text == "True" || *text == "TRUE") {
    *out = true;
  } else if (*text == "false" || *text == "False" || *text == "FALSE") {
    *out = false;
  } else {
    fail(key, "expected a boolean", *text, "true, false");
  }
  return true;
}

bool MapReader::read_number(const std::string& key, double* out, Need need, const Bounds& bounds) {
  const auto text = scalar(key, need, bounds.text());
  if (!text) return false;
  double v = 0;
  if (!parse_plain_number(*text, &v)) fail(key, "expected a plain number", *text, bounds.text());
  if (!bounds.contains(v)) fail(key, "out of range", *text, bounds.text());
  *out = v;
  return true;
}

bool MapReader::read_quantity(const std::string& key, double* out, Quantity kind, Need need,
                              const QuantityRange& range) {
  const std::string expected = std::string(quantity_name(kind)) + ": a number followed by one of " + valid_units(kind);
  const auto text = scalar(key, need, expected);
  if (!text) return false;
  double plain = 0;
  if (parse_plain_number(*text, &plain)) fail(key, "a number needs a unit here", *text, expected);
  double v = 0;
  try {
    v = parse_quantity(*text, kind);
  } catch (const QuantityOverflow&) {
    fail(key, "too large: it overflows once its unit is applied", *text, expected + ", below about 1.8e308 in base units");
  } catch (const std::invalid_argument&) {
    fail(key, std::string("not ") + quantity_name(kind), *text, expected);
  }
  if (!range.contains(v)) {
    fail(key, "outside the plausible range", *text,
         std::string(quantity_name(kind)) + " " + range.text() + " (docs/schema.md says why)");
  }
  *out = v;
  return true;
}

int MapReader::read_choice(const std::string& key, const std::vector<std::string>& names, Need need) {
  const auto text = scalar(key, need, join_names(names));
  if (!text) return -1;
  const auto it = std::find(names.begin(), names.end(), *text);
  if (it == names.end()) fail(key, "unknown value", *text, join_names(names));
  return static_cast<int>(it - names.begin());
}

std::optional<MapReader> MapReader::map(const std::string& key, Need need, std::vector<std::string> valid_keys) {
  const YAML::Node v = value(key, need, "a map with keys: " + join_names(valid_keys));
  if (!v.IsDefined()) return std::nullopt;
  return MapReader(*source_, v, key_path(key), std::move(valid_keys));
}

std::vector<YAML::Node> MapReader::list(const std::string& key, Need need) {
  const YAML::Node v = value(key, need, "a YAML list ('- ...' items)");
  if (!v.IsDefined()) return {};
  if (!v.IsSequence()) fail(key, "expected a list", describe_node(v), "a YAML list ('- ...' items)");
  return {v.begin(), v.end()};
}

}  // namespace trainsim
