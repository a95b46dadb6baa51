// Where a platform's fitted theta lives and how it is read: platforms/theta/<name>.yaml, in a theta/
// folder beside the platform's YAML, so `fit` writes it and `estimate` finds it.
#pragma once
#include <string>

#include "sim/analytic/iteration_theta.hpp"
#include "sim/config/platform_spec.hpp"

namespace trainsim {

struct ThetaFile {
  IterationTheta theta;         // defaults when no file exists
  std::string source;           // the file read; empty for defaults
  double test_mean_error = 0;   // fraction, from the fit's held-out runs; 0 = unknown
  double test_max_error = 0;
};

// The theta file path for `platform`: theta/<stem>.yaml in its YAML's folder (a subfolder, so that
// preset listings of platforms/*.yaml do not take it for a platform).
[[nodiscard]] std::string theta_path_for(const PlatformSpec& platform);
// Reads `explicit_path` when not empty (it must exist; "defaults" means theta = 1), else the
// platform's theta file when it exists, else returns the defaults.
[[nodiscard]] ThetaFile load_theta_for(const PlatformSpec& platform, const std::string& explicit_path);

}  // namespace trainsim
