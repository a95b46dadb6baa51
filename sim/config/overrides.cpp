#include "sim/config/overrides.hpp"

#include <algorithm>

#include "sim/core/error.hpp"

namespace trainsim {
namespace {

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    out.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return out;
    start = dot + 1;
  }
}

YAML::Node value_node(const Override& o) {
  if (!o.value.empty() && (o.value[0] == '{' || o.value[0] == '[')) {
    try {
      return YAML::Load(o.value);
    } catch (const YAML::Exception& e) {
      throw ConfigError(o.text, 0, o.path, "the value is not valid YAML: " + e.msg, o.value,
                        "a plain value, or a YAML flow map/list such as {bf16: 989TFLOPS}");
    }
  }
  return YAML::Node(o.value);
}

bool parse_index(const std::string& text, size_t* out) {
  if (text.empty() || text.size() > 9) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  *out = std::stoul(text);
  return true;
}

// The child of `node` named `segment`: a list index, or a map key (turning a null node into
// an empty map first). `path` is the key path up to and including `segment`.
YAML::Node step(YAML::Node& node, const std::string& segment, const std::string& path, const Override& o) {
  if (node.IsSequence()) {
    size_t index = 0;
    if (!parse_index(segment, &index) || index >= node.size()) {
      const std::string valid = node.size() == 0 ? "none (the list is empty)"
                                                 : "0.." + std::to_string(node.size() - 1);
      throw ConfigError(o.text, 0, path, "no such list index", segment, valid);
    }
    return node[index];
  }
  if (!node.IsMap() && node.IsDefined() && !node.IsNull()) {
    const std::string parent =
        path.size() > segment.size() ? path.substr(0, path.size() - segment.size() - 1) : "(document)";
    throw ConfigError(o.text, 0, path, "'" + parent + "' holds a single value, not a map", segment,
                      "a path that ends at '" + parent + "'");
  }
  if (!node.IsMap()) node = YAML::Node(YAML::NodeType::Map);
  return node[segment];
}

}  // namespace

// The deepest key of a run is 4 levels below the run (platform.accelerator.peak_flops.bf16,
// platform.tiers.1.bandwidth); a longer path names nothing, and walking it would create one
// nested map (and one record of the override) per segment before failing.
static constexpr size_t kMaxPathSegments = 16;

// At most the first 60 characters of `text`, marked when cut (for messages about huge input).
static std::string shortened(const std::string& text) {
  return text.size() <= 60 ? text : text.substr(0, 60) + "... (" + std::to_string(text.size()) + " characters)";
}

Override parse_override(const std::string& arg) {
  const std::string text = "--set " + arg;
  const size_t eq = arg.find('=');
  if (eq == std::string::npos) {
    throw ConfigError(shortened(text), 0, shortened(arg), "an override needs '='", shortened(arg),
                      "key.path=value, e.g. strategy.tp=4");
  }
  const size_t segments = static_cast<size_t>(std::count(arg.begin(), arg.begin() + static_cast<long>(eq), '.')) + 1;
  if (segments > kMaxPathSegments) {
    throw ConfigError(shortened(text), 0, shortened(arg.substr(0, eq)),
                      "the key path has " + std::to_string(segments) + " segments; no key of a run is deeper than " +
                          std::to_string(kMaxPathSegments),
                      "", "key.path=value, e.g. platform.tiers.1.bandwidth=100GBps");
  }
  Override o{text, arg.substr(0, eq), arg.substr(eq + 1)};
  for (const auto& segment : split_path(o.path)) {
    if (segment.empty()) {
      throw ConfigError(text, 0, o.path.empty() ? "(document)" : o.path, "empty key in the override path", arg,
                        "key.path=value, e.g. platform.tiers.1.bandwidth=100GBps");
    }
  }
  return o;
}

std::vector<Override> parse_overrides(const std::vector<std::string>& args) {
  std::vector<Override> out;
  for (const auto& a : args) out.push_back(parse_override(a));
  return out;
}

std::vector<Override> select_overrides(const std::vector<Override>& all, const std::string& prefix, bool exclude) {
  std::vector<Override> out;
  const std::string head = prefix + ".";
  for (const auto& o : all) {
    const bool match = o.path.compare(0, head.size(), head) == 0;
    if (match == exclude) continue;
    Override copy = o;
    if (match) copy.path = o.path.substr(head.size());
    out.push_back(std::move(copy));
  }
  return out;
}

std::vector<Override> run_level_overrides(const std::vector<Override>& all) {
  return select_overrides(select_overrides(all, "model", true), "platform", true);
}

void apply_overrides(YAML::Node& root, const std::vector<Override>& overrides, YamlSource& source) {
  for (const auto& o : overrides) {
    const std::vector<std::string> segments = split_path(o.path);
    YAML::Node cur;
    cur.reset(root);
    std::string path;
    for (size_t i = 0; i + 1 < segments.size(); ++i) {
      path = join_path(path, segments[i]);
      YAML::Node next = step(cur, segments[i], path, o);
      if (!next.IsDefined() || next.IsNull()) {
        next = YAML::Node(YAML::NodeType::Map);  // a map the file did not have: the override creates it
        source.add_override(path, o.text);
      }
      cur.reset(next);
    }
    path = join_path(path, segments.back());
    YAML::Node target = step(cur, segments.back(), path, o);
    target = value_node(o);
    source.add_override(path, o.text);
  }
}

}  // namespace trainsim
