// Parsing of a theta file (see theta_loader.hpp).
#include "sim/config/theta_loader.hpp"

#include "sim/config/yaml_reader.hpp"

namespace trainsim {

ThetaSpec load_theta(const std::filesystem::path& file, const std::vector<std::string>& names) {
  YamlSource source(file.string());
  const YAML::Node root = load_yaml_file(file);
  MapReader top(source, root, "", {"platform", "theta", "test_error", "provenance"});
  ThetaSpec out;
  out.source_file = file.string();
  top.read_string("platform", &out.platform, Need::kRequired);
  auto theta = top.map("theta", Need::kRequired, names);
  const Bounds range{0, true, 100, false};
  for (const std::string& name : names) {
    double v = 0;
    if (theta->read_number(name, &v, Need::kOptional, range)) out.coefficients[name] = v;
  }
  if (auto err = top.map("test_error", Need::kOptional, {"mean", "max"})) {
    err->read_number("mean", &out.test_mean_error, Need::kOptional, at_least(0));
    err->read_number("max", &out.test_max_error, Need::kOptional, at_least(0));
  }
  return out;
}

}  // namespace trainsim
