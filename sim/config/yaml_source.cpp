#include "sim/config/yaml_source.hpp"

#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"

namespace trainsim {

std::string join_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::string display_path(const std::string& path) { return path.empty() ? "(document)" : path; }

std::string describe_node(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  return node.Scalar();
}

void YamlSource::add_override(const std::string& tree_path, const std::string& text) {
  overrides_[tree_path] = text;
}

Location YamlSource::locate(const std::string& path, const YAML::Node& node) const {
  // The longest override path that is `path` itself or one of its parents wins.
  const std::string* best = nullptr;
  size_t best_len = 0;
  for (const auto& [tree_path, text] : overrides_) {
    const bool covers = path == tree_path ||
                        (path.size() > tree_path.size() && path.compare(0, tree_path.size(), tree_path) == 0 &&
                         path[tree_path.size()] == '.');
    if (covers && (best == nullptr || tree_path.size() >= best_len)) {
      best = &text;
      best_len = tree_path.size();
    }
  }
  if (best != nullptr) return {*best, 0};
  const int line = node.IsDefined() ? node.Mark().line + 1 : 0;  // Mark().line is 0-based, -1 if none
  return {file_, line > 0 ? line : 0};
}

void YamlSource::remember(const std::string& path, const Location& where) { seen_[path] = where; }

Location YamlSource::where(const std::string& path) const {
  std::string probe = path;
  while (true) {
    const auto it = seen_.find(probe);
    if (it != seen_.end()) return it->second;
    if (probe.empty()) return {file_, 0};
    const size_t dot = probe.rfind('.');
    probe = dot == std::string::npos ? "" : probe.substr(0, dot);
  }
}

void YamlSource::fail(const std::string& path, const YAML::Node& node, const std::string& problem,
                      const std::string& value, const std::string& expected) const {
  const Location at = locate(path, node);
  throw ConfigError(at.file, at.line, display_path(path), problem, value, expected);
}

void YamlSource::fail_at(const std::string& path, const std::string& problem, const std::string& value,
                         const std::string& expected) const {
  const Location at = where(path);
  throw ConfigError(at.file, at.line, display_path(path), problem, value, expected);
}

YAML::Node load_yaml_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) {
    throw ConfigError(file.string(), 0, "(file)", "cannot open the file", file.string(),
                      "an existing, readable YAML file");
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    return YAML::Load(text.str());
  } catch (const YAML::Exception& e) {
    throw ConfigError(file.string(), e.mark.line + 1, "(syntax)", "invalid YAML: " + e.msg, "",
                      "well-formed YAML (check indentation, colons and quotes)");
  }
}

}  // namespace trainsim
