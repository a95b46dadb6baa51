// One YAML document being read: which file it came from, which values were replaced by
// `--set` overrides, and where every key was found. Every config error is raised here, so
// they all share the shape `<file>:<line>: <key.path>: <problem> (got '<value>'); valid: ...`.
// Internal to sim/config (the only folder that sees yaml-cpp).
#pragma once
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <string>

namespace trainsim {

// Where a value came from: a file and its 1-based line (0 = unknown), or, for a value
// replaced on the command line, the override itself ("--set strategy.tp=3") and line 0.
struct Location {
  std::string file;
  int line = 0;
};

// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c".
[[nodiscard]] std::string join_path(const std::string& parent, const std::string& key);
// The key path as printed in errors: the document root is "(document)".
[[nodiscard]] std::string display_path(const std::string& path);
// What a node holds, for "(got '...')": the scalar text, or "a map" / "a list" / "nothing".
[[nodiscard]] std::string describe_node(const YAML::Node& node);

class YamlSource {
 public:
  explicit YamlSource(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  // Values at `tree_path` (and below it) came from the override `text` ("--set a.b=1").
  void add_override(const std::string& tree_path, const std::string& text);
  // Where the value at `path` (held by `node`) came from.
  [[nodiscard]] Location locate(const std::string& path, const YAML::Node& node) const;
  // Records where `path` was read, for rules checked after parsing.
  void remember(const std::string& path, const Location& where);
  // Where `path` was read (the override that set it, if one did); for a key that was absent, where
  // its nearest present parent was.
  [[nodiscard]] Location where(const std::string& path) const;

  // Throws the ConfigError for the value at `path` held by `node`.
  [[noreturn]] void fail(const std::string& path, const YAML::Node& node, const std::string& problem,
                         const std::string& value, const std::string& expected) const;
  // Throws the ConfigError for `path` at the place remember() recorded for it.
  [[noreturn]] void fail_at(const std::string& path, const std::string& problem,
                            const std::string& value, const std::string& expected) const;

 private:
  // The override text that set `path` or a parent of it; null when none did.
  [[nodiscard]] const std::string* override_of(const std::string& path) const;

  std::string file_;
  std::map<std::string, std::string> overrides_;  // tree path -> "--set ..."
  std::map<std::string, Location> seen_;          // key path -> where it was read
};

// Parses a YAML file. A missing file, an unreadable one or a syntax error is a ConfigError
// naming `file` (and the line of the syntax error).
[[nodiscard]] YAML::Node load_yaml_file(const std::filesystem::path& file);

}  // namespace trainsim
