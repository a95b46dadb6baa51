#include "sim/config/preset_base.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "sim/config/overrides.hpp"
#include "sim/config/spec_parsers.hpp"
#include "sim/config/yaml_reader.hpp"

namespace trainsim {
namespace {

// A set: value as the text an override carries: a scalar as written, a map or list in flow form.
std::string value_text(const YAML::Node& value) {
  if (value.IsScalar()) return value.Scalar();
  YAML::Emitter out;
  out << YAML::Flow << value;
  return out.c_str();
}

// "<file>:<line>: set.<path>", what an error in the entry is reported at.
std::string entry_text(const YamlSource& source, const YAML::Node& node, const std::string& path) {
  return source.file() + ":" + std::to_string(node.Mark().line + 1) + ": " + path;
}

std::vector<Override> entries(MapReader& r, const YAML::Node& root) {
  std::vector<Override> out;
  for (const char* key : {"name", "description"}) {
    if (r.has(key)) out.push_back({entry_text(r.source(), root[key], key), key, value_text(root[key])});
  }
  const YAML::Node set = root["set"];
  if (!set.IsDefined() || set.IsNull()) return out;
  if (!set.IsMap())
    r.fail("set", "must be a map of key paths to values", r.text_of("set"), "e.g. {tiers.1.bandwidth: 800Gbps}");
  std::vector<std::string> seen;  // each key path once, as in every other map
  for (const auto& kv : set) {
    const std::string path = kv.first.Scalar();
    if (std::find(seen.begin(), seen.end(), path) != seen.end())
      r.source().fail("set." + path, kv.first, "key appears twice in this map", path, "each key path once");
    seen.push_back(path);
    Override o = parse_override(path + "=" + value_text(kv.second));
    o.text = entry_text(r.source(), kv.second, "set." + path);
    out.push_back(o);
  }
  return out;
}

}  // namespace

YAML::Node resolve_preset_base(YamlSource& source, const YAML::Node& root, PresetKind kind,
                               const std::filesystem::path& dir, int depth) {
  if (!root.IsMap() || !root["base"].IsDefined()) return root;
  MapReader r(source, root, "", {"base", "name", "description", "set"});
  std::string base;
  r.read_string("base", &base, Need::kRequired);
  if (depth >= kMaxBaseDepth)
    r.fail("base", "presets chain through more than " + std::to_string(kMaxBaseDepth) + " bases (a loop?)", base,
           "a preset whose chain of bases is shorter and has no loop");
  const std::filesystem::path file = resolve_reference(base, kind, dir, source.where("base"), "base");
  YAML::Node tree = resolve_preset_base(source, load_yaml_file(file), kind, file.parent_path(), depth + 1);
  apply_overrides(tree, entries(r, root), source);
  return tree;
}

}  // namespace trainsim
