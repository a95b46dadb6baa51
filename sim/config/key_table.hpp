// The keys of one YAML map, as a table: each key's type, whether it is required, what values are
// valid, its default and what it means. The loaders read their maps through these tables, so the
// valid keys, the ranges a value is checked against, the defaults a left-out key takes (which
// `check` reports for platforms) and the schema page (`trainsim schema`, docs/schema.md) all
// come from one place. A key the loader reads with its own code (a nested map, a list, a value
// whose check needs other keys) has an entry without a reader: it still lists the key, its valid
// values and its meaning. Internal to sim/config.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/config/platform_spec.hpp"  // DefaultedKey
#include "sim/config/yaml_reader.hpp"
#include "sim/core/units.hpp"

namespace trainsim {

template <class S>
struct KeyEntry {
  std::string key;
  Need need = Need::kOptional;
  std::string valid;    // what the loader accepts, e.g. "a number in [0.01, 1]"
  std::string meaning;  // what the value is, and why its bounds (the schema page's last column)
  // Reads the key into the struct (true when present); null: the loader reads it with its own code.
  std::function<bool(MapReader&, const KeyEntry&, S&)> read;
  // The value as YAML text ("450GBps", "0.8"); null: no single value to state (maps, lists).
  std::function<std::string(const S&)> show;
  // Whether the key means anything for this struct (e.g. switch_radix only on switched tiers);
  // null: always. A left-out key that does not apply is not reported as defaulted.
  std::function<bool(const S&)> applies;
  std::string applies_to;  // the condition in words, for the schema page ("fat_tree, rail_optimized")
};

template <class S>
class KeyTable {
 public:
  explicit KeyTable(std::vector<KeyEntry<S>> entries) : entries_(std::move(entries)) {}
  [[nodiscard]] const std::vector<KeyEntry<S>>& entries() const { return entries_; }
  [[nodiscard]] std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const auto& e : entries_) out.push_back(e.key);
    return out;
  }
  [[nodiscard]] const KeyEntry<S>& at(const std::string& key) const {
    for (const auto& e : entries_)
      if (e.key == key) return e;
    throw std::logic_error("key table has no key " + key);
  }
  // Reads every entry that has a reader, in table order. Each optional key that is absent and
  // applies to `s` (as read so far) is appended to *defaulted (when given) with the value it kept.
  void read(MapReader& r, S& s, std::vector<DefaultedKey>* defaulted) const {
    for (const auto& e : entries_) {
      if (!e.read) continue;
      const bool present = e.read(r, e, s);
      if (present || defaulted == nullptr || !e.show || (e.applies && !e.applies(s))) continue;
      defaulted->push_back({r.key_path(e.key), e.show(s)});
    }
  }

 private:
  std::vector<KeyEntry<S>> entries_;
};

[[nodiscard]] inline std::string bool_text(bool v) { return v ? "true" : "false"; }
// A quantity as a unit string that reads back exactly where one exists: 0 in the base unit ("0s",
// "0B"), a byte size in the largest binary or decimal unit that divides it ("80GiB", "40MB"),
// otherwise format_quantity's text.
[[nodiscard]] std::string quantity_text(double value, Quantity kind);

// `below_lo`: what is wrong with a value under `lo` (MapReader::read_int), or "out of range".
template <class S>
KeyEntry<S> int_key(std::string key, int S::*field, Need need, int lo, int hi, std::string meaning,
                    const char* below_lo = nullptr) {
  KeyEntry<S> e{std::move(key), need, int_range_text(lo, hi), std::move(meaning), nullptr, nullptr, nullptr, ""};
  e.read = [field, lo, hi, below_lo](MapReader& r, const KeyEntry<S>& k, S& s) {
    return r.read_int(k.key, &(s.*field), k.need, lo, hi, below_lo);
  };
  e.show = [field](const S& s) { return std::to_string(s.*field); };
  return e;
}

template <class S>
KeyEntry<S> number_key(std::string key, double S::*field, Need need, Bounds bounds, std::string meaning) {
  KeyEntry<S> e{std::move(key), need, bounds.text(), std::move(meaning), nullptr, nullptr, nullptr, ""};
  e.read = [field, bounds](MapReader& r, const KeyEntry<S>& k, S& s) { return r.read_number(k.key, &(s.*field), k.need, bounds); };
  e.show = [field](const S& s) { return number_text(s.*field); };
  return e;
}

template <class S>
KeyEntry<S> quantity_key(std::string key, double S::*field, Quantity kind, Need need, QuantityRange range,
                         std::string meaning) {
  KeyEntry<S> e{std::move(key), need, std::string(quantity_name(kind)) + " " + range.text(), std::move(meaning),
                nullptr, nullptr, nullptr, ""};
  e.read = [field, kind, range](MapReader& r, const KeyEntry<S>& k, S& s) {
    return r.read_quantity(k.key, &(s.*field), kind, k.need, range);
  };
  e.show = [field, kind](const S& s) { return quantity_text(s.*field, kind); };
  return e;
}

template <class S>
KeyEntry<S> bool_key(std::string key, bool S::*field, Need need, std::string meaning) {
  KeyEntry<S> e{std::move(key), need, "true, false", std::move(meaning), nullptr, nullptr, nullptr, ""};
  e.read = [field](MapReader& r, const KeyEntry<S>& k, S& s) { return r.read_bool(k.key, &(s.*field), k.need); };
  e.show = [field](const S& s) { return bool_text(s.*field); };
  return e;
}

// A string; `valid` says what it may name (the loader, or a registry, checks the name itself).
template <class S>
KeyEntry<S> string_key(std::string key, std::string S::*field, Need need, std::string valid, std::string meaning,
                       bool allow_empty = false) {
  KeyEntry<S> e{std::move(key), need, std::move(valid), std::move(meaning), nullptr, nullptr, nullptr, ""};
  e.read = [field, allow_empty](MapReader& r, const KeyEntry<S>& k, S& s) {
    return r.read_string(k.key, &(s.*field), k.need, allow_empty);
  };
  e.show = [field](const S& s) { return s.*field; };
  return e;
}

template <class S, class E>
KeyEntry<S> enum_key(std::string key, E S::*field, Need need, const EnumNames<E>& names, std::string meaning) {
  std::vector<std::string> texts;
  for (const auto& n : names) texts.emplace_back(n.first);
  KeyEntry<S> e{std::move(key), need, join_names(texts), std::move(meaning), nullptr, nullptr, nullptr, ""};
  e.read = [field, &names](MapReader& r, const KeyEntry<S>& k, S& s) { return r.read_enum(k.key, &(s.*field), k.need, names); };
  e.show = [field, &names](const S& s) {
    for (const auto& n : names)
      if (n.second == s.*field) return std::string(n.first);
    return std::string();
  };
  return e;
}

// A key the loader reads with its own code (a map, a list, a reference to another file).
template <class S>
KeyEntry<S> custom_key(std::string key, Need need, std::string valid, std::string meaning) {
  return KeyEntry<S>{std::move(key), need, std::move(valid), std::move(meaning), nullptr, nullptr, nullptr, ""};
}

// `entry`, meaningful only where `applies` holds (described as `applies_to`).
template <class S>
KeyEntry<S> only_for(KeyEntry<S> entry, std::function<bool(const S&)> applies, std::string applies_to) {
  entry.applies = std::move(applies);
  entry.applies_to = std::move(applies_to);
  return entry;
}

}  // namespace trainsim
