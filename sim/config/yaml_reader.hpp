// Strict typed reading of one YAML map. A MapReader knows the keys its map may hold and
// rejects any other key up front (listing the valid ones); each read_* checks the type and
// range of one value, records where it was found, and leaves the target untouched when an
// optional key is absent (so struct defaults stay). Internal to sim/config.
#pragma once
#include <yaml-cpp/yaml.h>

#include <climits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/yaml_source.hpp"
#include "sim/core/units.hpp"

namespace trainsim {

enum class Need { kRequired, kOptional };

// An interval of plain numbers, e.g. (0, 1] for efficiencies.
struct Bounds {
  double lo;
  bool lo_open;
  double hi;
  bool hi_open;
  [[nodiscard]] bool contains(double x) const;
  [[nodiscard]] std::string text() const;  // "a number in (0, 1]", "a number > 0"
};
// A closed interval of a quantity in base units (bytes, seconds, bytes/s, FLOP/s), with its
// bounds as unit strings for messages and docs (sim/config/plausible_ranges.hpp).
struct QuantityRange {
  double lo;
  double hi;
  const char* lo_text;
  const char* hi_text;
  [[nodiscard]] bool contains(double x) const { return x >= lo && x <= hi; }
  [[nodiscard]] std::string text() const { return std::string("from ") + lo_text + " to " + hi_text; }
};

[[nodiscard]] Bounds positive();               // (0, inf)
[[nodiscard]] Bounds at_least(double lo);      // [lo, inf)
[[nodiscard]] Bounds unit_fraction();          // (0, 1]: efficiencies
[[nodiscard]] Bounds fraction_below_one();     // [0, 1): interference

template <class E>
using EnumNames = std::vector<std::pair<const char*, E>>;

class MapReader {
 public:
  // Fails unless `node` is a map whose keys are all in `valid_keys`.
  MapReader(YamlSource& source, YAML::Node node, std::string path, std::vector<std::string> valid_keys);

  const std::string& path() const { return path_; }
  YamlSource& source() const { return *source_; }
  [[nodiscard]] bool has(const std::string& key) const;
  [[nodiscard]] std::string key_path(const std::string& key) const { return join_path(path_, key); }
  // The value of `key` as text for "(got '...')" (see describe_node).
  [[nodiscard]] std::string text_of(const std::string& key) const;

  // Each returns true when the key was present (and stored into *out).
  bool read_string(const std::string& key, std::string* out, Need need, bool allow_empty = false);
  // `below_lo`: what is wrong with a value under `lo`, said instead of "out of range".
  bool read_int(const std::string& key, int* out, Need need, int lo, int hi = INT_MAX, const char* below_lo = nullptr);
  bool read_bool(const std::string& key, bool* out, Need need);
  bool read_number(const std::string& key, double* out, Need need, const Bounds& bounds);
  // A unit string such as "400GBps" within `range`; a bare number is rejected (the unit is not implied).
  bool read_quantity(const std::string& key, double* out, Quantity kind, Need need, const QuantityRange& range);
  // One of `names`; returns the index into names, or -1 when absent.
  int read_choice(const std::string& key, const std::vector<std::string>& names, Need need);
  template <class E>
  bool read_enum(const std::string& key, E* out, Need need, const EnumNames<E>& names) {
    std::vector<std::string> texts;
    for (const auto& n : names) texts.emplace_back(n.first);
    const int i = read_choice(key, texts, need);
    if (i >= 0) *out = names[static_cast<size_t>(i)].second;
    return i >= 0;
  }
  // A nested map; nullopt when an optional key is absent.
  std::optional<MapReader> map(const std::string& key, Need need, std::vector<std::string> valid_keys);
  // A nested list; empty when an optional key is absent.
  std::vector<YAML::Node> list(const std::string& key, Need need);

  // Throws the ConfigError for `key` of this map, located at its value (at the key itself when the
  // value is empty, at the map when the key is absent).
  [[noreturn]] void fail(const std::string& key, const std::string& problem, const std::string& value,
                         const std::string& expected) const;

 private:
  // The node whose position an error about `key` names (see fail).
  [[nodiscard]] YAML::Node position_of(const std::string& key) const;
  // The value of `key` after the presence check (a missing required key fails, saying
  // `expected`); an undefined node for an absent optional key.
  YAML::Node value(const std::string& key, Need need, const std::string& expected);
  // The scalar text of `key`; nullopt when an optional key is absent.
  std::optional<std::string> scalar(const std::string& key, Need need, const std::string& expected);
  void check_keys() const;

  YamlSource* source_;
  YAML::Node node_;
  std::string path_;
  std::vector<std::string> valid_keys_;
};

// "a, b, c"
[[nodiscard]] std::string join_names(const std::vector<std::string>& names);
// How the reader describes values in messages (and the schema page): "0.8" (%g), "an integer in
// 1..1024" ("an integer >= 1" when unbounded), "a bandwidth".
[[nodiscard]] std::string number_text(double x);
[[nodiscard]] std::string int_range_text(int lo, int hi);
[[nodiscard]] const char* quantity_name(Quantity kind);

}  // namespace trainsim
