#include "sim/config/uncalibrated.hpp"

#include <optional>
#include <set>
#include <sstream>

namespace trainsim {
namespace {

constexpr const char* kExpected =
    "the dotted path of a value this platform gives, e.g. accelerator.gemm_efficiency or tiers.1.efficiency";

// The scalar text at a dotted path (list items by index); nullopt when the path names no
// scalar. Walks const nodes only: reading must not add keys to the document.
std::optional<std::string> scalar_at(const YAML::Node& root, const std::string& path) {
  std::vector<YAML::Node> chain{root};
  std::stringstream in(path);
  std::string segment;
  while (std::getline(in, segment, '.')) {
    const YAML::Node& cur = chain.back();
    if (segment.empty()) return std::nullopt;
    if (cur.IsSequence()) {
      if (segment.find_first_not_of("0123456789") != std::string::npos || segment.size() > 6) return std::nullopt;
      const size_t index = std::stoul(segment);
      if (index >= cur.size()) return std::nullopt;
      chain.push_back(cur[index]);
    } else if (cur.IsMap() && cur[segment]) {
      chain.push_back(cur[segment]);
    } else {
      return std::nullopt;
    }
  }
  if (!chain.back().IsScalar()) return std::nullopt;
  return chain.back().Scalar();
}

}  // namespace

std::vector<UncalibratedParameter> read_uncalibrated(const YamlSource& source, const YAML::Node& root) {
  std::vector<UncalibratedParameter> out;
  const YAML::Node list = root["uncalibrated"];
  if (!list) return out;
  if (!list.IsSequence()) {
    source.fail("uncalibrated", list, "must be a list of key paths", describe_node(list), kExpected);
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = "uncalibrated." + std::to_string(i);
    const YAML::Node entry = list[i];
    if (!entry.IsScalar()) source.fail(at, entry, "must be a key path", describe_node(entry), kExpected);
    const std::string path = entry.Scalar();
    if (path == "uncalibrated" || path.rfind("uncalibrated.", 0) == 0) {
      source.fail(at, entry, "names the list itself", path, kExpected);
    }
    const std::optional<std::string> value = scalar_at(root, path);
    if (!value) source.fail(at, entry, "names no value given in this platform", path, kExpected);
    if (!seen.insert(path).second) source.fail(at, entry, "is listed twice", path, "each key path once");
    out.push_back({path, *value});
  }
  return out;
}

}  // namespace trainsim
