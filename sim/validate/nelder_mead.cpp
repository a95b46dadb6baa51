#include "sim/validate/nelder_mead.hpp"

#include <algorithm>
#include <cstddef>

namespace trainsim {
namespace {

constexpr double kInitialStep = 0.15;  // of each interval
constexpr double kReflect = 1.0, kExpand = 2.0, kContract = 0.5, kShrink = 0.5;

using Point = std::vector<double>;

struct Vertex {
  Point x;
  double f = 0;
};

// along(a, b, t) = a + t (b - a), clamped into the box.
Point along(const Point& a, const Point& b, double t, const Point& lo, const Point& hi) {
  Point out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = std::clamp(a[i] + t * (b[i] - a[i]), lo[i], hi[i]);
  return out;
}

Point centroid_without_worst(const std::vector<Vertex>& s) {
  Point c(s[0].x.size(), 0.0);
  for (size_t v = 0; v + 1 < s.size(); ++v)
    for (size_t i = 0; i < c.size(); ++i) c[i] += s[v].x[i] / static_cast<double>(s.size() - 1);
  return c;
}

}  // namespace

NelderMeadResult nelder_mead_minimize(const std::function<double(const std::vector<double>&)>& f,
                                      const std::vector<double>& start, const std::vector<double>& lo,
                                      const std::vector<double>& hi, int max_evaluations) {
  NelderMeadResult r;
  auto eval = [&](const Point& x) {
    const double v = f(x);
    r.evaluations.emplace_back(x, v);
    if (r.best_x.empty() || v < r.best_value) r.best_x = x, r.best_value = v;
    return Vertex{x, v};
  };
  const size_t n = start.size();
  std::vector<Vertex> s = {eval(start)};
  for (size_t i = 0; i < n; ++i) {
    Point x = start;
    const double step = kInitialStep * (hi[i] - lo[i]);
    x[i] = x[i] + step < hi[i] ? x[i] + step : x[i] - step;
    s.push_back(eval(x));
  }
  const auto budget = static_cast<size_t>(std::max<int>(max_evaluations, static_cast<int>(n) + 1));
  while (r.evaluations.size() < budget) {
    std::sort(s.begin(), s.end(), [](const Vertex& a, const Vertex& b) { return a.f < b.f; });
    const Point c = centroid_without_worst(s);
    const Vertex reflected = eval(along(c, s.back().x, -kReflect, lo, hi));
    if (reflected.f < s.front().f && r.evaluations.size() < budget) {
      const Vertex expanded = eval(along(c, s.back().x, -kExpand, lo, hi));
      s.back() = expanded.f < reflected.f ? expanded : reflected;
    } else if (reflected.f < s[n - 1].f) {
      s.back() = reflected;
    } else if (r.evaluations.size() < budget) {
      const Vertex contracted = eval(along(c, s.back().x, kContract, lo, hi));
      if (contracted.f < s.back().f) {
        s.back() = contracted;
      } else {
        for (size_t v = 1; v < s.size() && r.evaluations.size() < budget; ++v)
          s[v] = eval(along(s.front().x, s[v].x, kShrink, lo, hi));
      }
    }
  }
  return r;
}

}  // namespace trainsim
