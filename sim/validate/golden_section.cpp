#include "sim/validate/golden_section.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace trainsim {

GoldenSectionResult golden_section_minimize(const std::function<double(double)>& f, double lo, double hi,
                                            int evaluations) {
  assert(lo < hi && evaluations >= 2);
  const double inv_phi = (std::sqrt(5.0) - 1.0) / 2.0;  // 1/φ = 0.618...
  GoldenSectionResult out;
  auto eval = [&](double x) {
    const double v = f(x);
    out.evaluations.emplace_back(x, v);
    return v;
  };
  double a = lo, b = hi;
  double c = b - inv_phi * (b - a), d = a + inv_phi * (b - a);  // a < c < d < b
  double fc = eval(c), fd = eval(d);
  for (int i = 2; i < evaluations; ++i) {
    if (fc <= fd) {  // the minimum lies in [a, d]: d becomes the upper end, c the new upper point
      b = d;
      d = c;
      fd = fc;
      c = b - inv_phi * (b - a);
      fc = eval(c);
    } else {         // the minimum lies in [c, b]
      a = c;
      c = d;
      fc = fd;
      d = a + inv_phi * (b - a);
      fd = eval(d);
    }
  }
  const auto best = std::min_element(out.evaluations.begin(), out.evaluations.end(),
                                     [](const auto& x, const auto& y) { return x.second < y.second; });
  out.best_x = best->first;
  out.best_value = best->second;
  return out;
}

}  // namespace trainsim
