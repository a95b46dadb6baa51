#include "sim/config/yaml_source.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <yaml-cpp/depthguard.h>

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

const std::string* YamlSource::override_of(const std::string& path) const {
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
  return best;
}

Location YamlSource::locate(const std::string& path, const YAML::Node& node) const {
  if (const std::string* text = override_of(path)) return {*text, 0};
  const int line = node.IsDefined() ? node.Mark().line + 1 : 0;  // Mark().line is 0-based, -1 if none
  return {file_, line > 0 ? line : 0};
}

void YamlSource::remember(const std::string& path, const Location& where) { seen_[path] = where; }

Location YamlSource::where(const std::string& path) const {
  if (const std::string* text = override_of(path)) return {*text, 0};  // a key no reader has met yet
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

namespace {

// Config files are small (the largest bundled YAML is a few KiB); a bigger input is refused before
// it is read, so that no input can make loading take unbounded memory.
constexpr std::uintmax_t kMaxYamlBytes = 16u << 20;

[[noreturn]] void file_error(const std::filesystem::path& file, const std::string& problem) {
  throw ConfigError(file.string(), 0, "(file)", problem, file.string(),
                    "an existing, readable YAML file of at most 16 MiB");
}

// Refuses what is not a readable regular file of bounded size, each with its own reason.
void check_readable_file(const std::filesystem::path& file) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(file, ec);
  if (st.type() == std::filesystem::file_type::not_found) file_error(file, "file not found");
  if (ec) file_error(file, "cannot inspect the file: " + ec.message());
  if (std::filesystem::is_directory(st)) file_error(file, "is a directory, not a file");
  if (!std::filesystem::is_regular_file(st)) {
    file_error(file, "is not a regular file (a device, pipe or socket could be endless)");
  }
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (!ec && size > kMaxYamlBytes) {
    file_error(file, "is " + std::to_string(size) + " bytes, more than the 16 MiB a config file may be");
  }
}

}  // namespace

YAML::Node load_yaml_file(const std::filesystem::path& file) {
  check_readable_file(file);
  std::ifstream in(file);
  if (!in) file_error(file, std::string("cannot open the file: ") + std::strerror(errno));
  std::stringstream text;
  text << in.rdbuf();
  try {
    return YAML::Load(text.str());
  } catch (const YAML::DeepRecursion& e) {
    throw ConfigError(file.string(), e.mark.line + 1, "(syntax)",
                      "nested " + std::to_string(e.depth()) + " maps or lists deep, more than the YAML parser takes", "",
                      "a config file; none needs more than a few levels of nesting");
  } catch (const YAML::Exception& e) {
    throw ConfigError(file.string(), e.mark.line + 1, "(syntax)", "invalid YAML: " + e.msg, "",
                      "well-formed YAML (check indentation, colons and quotes)");
  }
}

}  // namespace trainsim
