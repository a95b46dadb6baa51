// A Hugging Face config.json -> ModelSpec: mapped by its model_type (hf_architectures.cpp), then
// --set overrides, then the model loader's own checks, as for a model YAML.
#include <filesystem>

#include "sim/config/hf_config.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/spec_parsers.hpp"
#include "sim/core/error.hpp"

namespace trainsim {
namespace {

// The model's name: the checkpoint it names (`_name_or_path`, last component); else, for a file
// named config.json (a Hugging Face checkpoint's), the folder holding it however the path is
// written; else the file's stem (llama.json: "llama", wherever it lies).
std::string model_name(const HfConfig& c, const std::filesystem::path& file) {
  std::string name = std::filesystem::path(c.text("_name_or_path")).filename().string();
  if (name.empty() && file.filename() == "config.json")
    name = std::filesystem::absolute(file).lexically_normal().parent_path().filename().string();
  if (name.empty() || name == "." || name == "..") name = file.stem().string();
  return name;
}

}  // namespace

ModelSpec load_hf_model_file(const std::filesystem::path& file, const std::vector<Override>& overrides) {
  YamlSource source(file.string());
  const HfConfig config(source, load_yaml_file(file));
  HfModel hf = map_hf_config(config);
  hf.model["name"] = model_name(config, file);
  hf.model["description"] =
      "imported from " + file.filename().string() + " (Hugging Face model_type " + hf.model_type + ")";
  apply_overrides(hf.model, overrides, source);
  ModelSpec m = parse_model(source, hf.model);
  m.notes = hf.notes;
  return m;
}

ModelSpec load_hf_model(const std::filesystem::path& file) { return load_hf_model_file(file, {}); }

std::optional<std::string> hf_reference_path(const std::string& reference) {
  const std::string prefix = "hf:";
  if (reference.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  return reference.substr(prefix.size());
}

std::filesystem::path resolve_hf_config(const std::string& path, const std::filesystem::path& base_dir,
                                        const Location& where) {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  if (fs::path(path).is_relative() && !base_dir.empty()) candidates.push_back(base_dir / path);
  candidates.push_back(path);
  for (const fs::path& c : candidates) {
    if (fs::is_regular_file(c)) return c;
    if (fs::is_directory(c) && fs::is_regular_file(c / "config.json")) return c / "config.json";
  }
  throw ConfigError(where.file, where.line, "model", "names no Hugging Face config.json", "hf:" + path,
                    "hf: and the path of a config.json (or of its folder), relative to the run file's folder or "
                    "the current folder");
}

}  // namespace trainsim
