// The fitted coefficients of the iteration formulas for one platform, as plain data parsed from
// platforms/theta/<name>.yaml (written by `trainsim fit`, read by `trainsim estimate`):
//
//   platform: dgx-h100-superpod
//   theta: {compute_scale: 1.0, tp_scale: 1.07, ...}     # names listed by the caller
//   test_error: {mean: 0.021, max: 0.064}                # |formula - replay| / replay, held out
//   provenance: {date: ..., trainsim: ..., seed: 1, samples: 40, train: 30, test: 10, ...}
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace trainsim {

struct ThetaSpec {
  std::string source_file;
  std::string platform;
  std::map<std::string, double> coefficients;  // name -> value
  double test_mean_error = 0;                  // fraction
  double test_max_error = 0;                   // fraction
};

// Strict: unknown keys, coefficients outside `names`, or values outside (0, 100] are ConfigErrors
// naming the file, key and value. provenance is free text and not interpreted.
[[nodiscard]] ThetaSpec load_theta(const std::filesystem::path& file, const std::vector<std::string>& names);

}  // namespace trainsim
