// The points of a sweep: the cartesian product of the --vary axes (the first axis outermost, the
// last one changing fastest, as nested loops in the order given), or with --zip the i-th value of
// every axis together. Pure.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sim/sweep/vary.hpp"

namespace trainsim {

struct SweepPoint {
  int index = 0;                                            // 0-based, in expansion order
  std::vector<std::pair<std::string, std::string>> values;  // (key, value), one per axis, axis order
};

// Throws UserError for no axes, or for --zip axes of different lengths (naming each length).
[[nodiscard]] std::vector<SweepPoint> expand_grid(const std::vector<VaryAxis>& axes, bool zip);

// The point's overrides as --set takes them: {"key=value", ...}.
[[nodiscard]] std::vector<std::string> point_overrides(const SweepPoint& p);
// "point 3 (platform.tiers.1.bandwidth=100GBps, strategy.tp=4)", for messages and progress.
[[nodiscard]] std::string point_label(const SweepPoint& p);
// "point-003.result": the point's result file in a jobs folder, zero-padded to sort in order.
[[nodiscard]] std::string point_file_name(int index);

}  // namespace trainsim
