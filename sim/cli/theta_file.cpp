// Finding and reading a platform's theta file (see theta_file.hpp).
#include "sim/cli/theta_file.hpp"

#include <filesystem>
#include <iostream>

#include "sim/config/theta_loader.hpp"

namespace trainsim {

std::string theta_path_for(const PlatformSpec& platform) {
  const std::filesystem::path yaml(platform.source_file);
  return (yaml.parent_path() / "theta" / (yaml.stem().string() + ".yaml")).string();
}

ThetaFile load_theta_for(const PlatformSpec& platform, const std::string& explicit_path) {
  ThetaFile out;
  if (explicit_path == "defaults") return out;
  const std::string path = explicit_path.empty() ? theta_path_for(platform) : explicit_path;
  if (explicit_path.empty() && (platform.source_file.empty() || !std::filesystem::exists(path))) return out;
  std::vector<std::string> names;
  for (const ThetaField& f : theta_fields()) names.emplace_back(f.name);
  const ThetaSpec spec = load_theta(path, names);
  if (!spec.platform.empty() && spec.platform != platform.name)
    std::cerr << "warning: " << spec.source_file << " was fitted for platform '" << spec.platform << "', not '"
              << platform.name << "' of this run: its coefficients describe another machine\n";
  for (const ThetaField& f : theta_fields()) {
    const auto it = spec.coefficients.find(f.name);
    if (it != spec.coefficients.end()) out.theta.*f.value = it->second;
  }
  out.source = spec.source_file;
  out.test_mean_error = spec.test_mean_error;
  out.test_max_error = spec.test_max_error;
  return out;
}

}  // namespace trainsim
