#include "sim/config/hf_config.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "sim/config/yaml_reader.hpp"

namespace trainsim {

HfConfig::HfConfig(YamlSource& source, YAML::Node root) : source_(&source), root_(std::move(root)) {
  if (!root_.IsMap())
    source_->fail("", root_, "a Hugging Face config.json is one JSON object", describe_node(root_),
                  "{\"model_type\": \"llama\", \"hidden_size\": 4096, ...}");
}

std::string HfConfig::model_type() const {
  std::vector<std::string> types = supported_hf_model_types();
  return required("model_type", "one of " + join_names(types)).Scalar();
}

bool HfConfig::has(const std::string& key) const {
  const YAML::Node v = root_[key];
  return v.IsDefined() && !v.IsNull();
}

YAML::Node HfConfig::required(const std::string& key, const std::string& expected) const {
  if (!has(key)) source_->fail(key, root_, "missing required key", "", expected);
  const YAML::Node v = root_[key];
  return v;
}

void HfConfig::fail(const std::string& key, const std::string& problem, const std::string& expected) const {
  const YAML::Node v = root_[key];
  source_->fail(key, v.IsDefined() ? v : root_, problem, describe_node(v), expected);
}

int HfConfig::integer(const std::string& key, int lo, int hi) const {
  const std::string expected = int_range_text(lo, hi);
  const YAML::Node v = required(key, expected);
  const std::string text = v.IsScalar() ? v.Scalar() : "";
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  errno = 0;
  const long long n = digits && text.size() < 12 ? std::strtoll(text.c_str(), nullptr, 10) : -1;
  if (!digits || errno != 0 || n < lo || n > hi) fail(key, "expected a whole number in range", expected);
  return static_cast<int>(n);
}

int HfConfig::integer_or(const std::string& key, int fallback, int lo, int hi) const {
  return has(key) ? integer(key, lo, hi) : fallback;
}

bool HfConfig::boolean_or(const std::string& key, bool fallback) const {
  if (!has(key)) return fallback;
  const std::string t = root_[key].IsScalar() ? root_[key].Scalar() : "";
  if (t != "true" && t != "false") fail(key, "expected a boolean", "true, false");
  return t == "true";
}

std::string HfConfig::text(const std::string& key) const {
  if (!has(key)) return "";
  const YAML::Node v = root_[key];
  return v.IsScalar() ? v.Scalar() : describe_node(v);
}

}  // namespace trainsim
