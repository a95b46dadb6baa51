// A Hugging Face config.json turned into the project's model YAML tree. JSON is read with yaml-cpp
// (JSON is YAML flow syntax), so values keep their line in the file for errors. Each supported
// `model_type` maps its keys onto ModelSpec's (sim/config/hf_architectures.cpp); what a config says
// that ModelSpec cannot express becomes a note, never a silent drop. Internal to sim/config.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "sim/config/yaml_source.hpp"

namespace trainsim {

// Reading one config.json: required and optional keys by their JSON names, errors at their line.
class HfConfig {
 public:
  HfConfig(YamlSource& source, YAML::Node root);
  [[nodiscard]] const std::string& file() const { return source_->file(); }
  [[nodiscard]] std::string model_type() const;
  // Present and not null.
  [[nodiscard]] bool has(const std::string& key) const;
  // The value of `key`; a missing (or null) key fails naming it and `expected`.
  [[nodiscard]] YAML::Node required(const std::string& key, const std::string& expected) const;
  // A whole number >= lo (and <= hi), or fails at the key.
  [[nodiscard]] int integer(const std::string& key, int lo, int hi = 1 << 30) const;
  [[nodiscard]] int integer_or(const std::string& key, int fallback, int lo, int hi = 1 << 30) const;
  [[nodiscard]] bool boolean_or(const std::string& key, bool fallback) const;
  // The scalar text of `key` ("" when absent or null), for notes.
  [[nodiscard]] std::string text(const std::string& key) const;
  [[nodiscard]] const YAML::Node& root() const { return root_; }
  [[noreturn]] void fail(const std::string& key, const std::string& problem, const std::string& expected) const;

 private:
  YamlSource* source_;
  YAML::Node root_;
};

// What an import produced: the model tree (the keys of workloads/models/*.yaml) and its notes.
struct HfModel {
  YAML::Node model;
  std::vector<std::string> notes;
  std::string model_type;
};

// Maps `config` by its model_type; an unknown or missing model_type fails at that key, listing the
// supported ones.
[[nodiscard]] HfModel map_hf_config(const HfConfig& config);
// "llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, deepseek_v3, gpt_oss".
[[nodiscard]] std::vector<std::string> supported_hf_model_types();

}  // namespace trainsim
