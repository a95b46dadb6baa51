#include "sim/sweep/grid.hpp"

#include <cstdio>

#include "sim/core/error.hpp"
#include "sim/core/text_list.hpp"

namespace trainsim {
namespace {

std::vector<SweepPoint> zipped(const std::vector<VaryAxis>& axes) {
  for (const VaryAxis& a : axes)
    if (a.values.size() != axes.front().values.size()) {
      std::vector<std::string> lengths;
      for (const VaryAxis& b : axes) lengths.push_back(b.key + " has " + std::to_string(b.values.size()));
      throw UserError("--zip needs every --vary list to have the same length (" + join_text(lengths) +
                      " values); give lists of one length, or drop --zip for their cartesian product");
    }
  std::vector<SweepPoint> out;
  for (size_t i = 0; i < axes.front().values.size(); ++i) {
    SweepPoint p;
    p.index = static_cast<int>(i);
    for (const VaryAxis& a : axes) p.values.emplace_back(a.key, a.values[i]);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<SweepPoint> product(const std::vector<VaryAxis>& axes) {
  size_t count = 1;
  for (const VaryAxis& a : axes) count *= a.values.size();
  std::vector<SweepPoint> out;
  for (size_t i = 0; i < count; ++i) {
    SweepPoint p;
    p.index = static_cast<int>(i);
    // Mixed-radix digits of i, the last axis the least significant.
    size_t rest = i;
    p.values.resize(axes.size());
    for (size_t k = axes.size(); k-- > 0;) {
      const size_t n = axes[k].values.size();
      p.values[k] = {axes[k].key, axes[k].values[rest % n]};
      rest /= n;
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

std::vector<SweepPoint> expand_grid(const std::vector<VaryAxis>& axes, bool zip) {
  if (axes.empty()) throw UserError("sweep: give at least one --vary KEY=V1,V2,... (see trainsim sweep --help)");
  return zip ? zipped(axes) : product(axes);
}

std::vector<std::string> point_overrides(const SweepPoint& p) {
  std::vector<std::string> out;
  for (const auto& [key, value] : p.values) out.push_back(key + "=" + value);
  return out;
}

std::string point_label(const SweepPoint& p) {
  return "point " + std::to_string(p.index) + " (" + join_text(point_overrides(p)) + ")";
}

std::string point_file_name(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "point-%03d.result", index);
  return name;
}

}  // namespace trainsim
