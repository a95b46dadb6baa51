// The DP stream's race with the pass it hides behind (see overlap_points.hpp).
#include "sim/analytic/overlap_points.hpp"

#include <algorithm>

namespace trainsim {

std::vector<OverlapPoint> upper_envelope(std::vector<OverlapPoint> points) {
  // By share, and by comm (largest first) among equal shares.
  std::sort(points.begin(), points.end(), [](const OverlapPoint& a, const OverlapPoint& b) {
    return a.share < b.share || (a.share == b.share && a.comm > b.comm);
  });
  std::vector<OverlapPoint> hull;
  for (const OverlapPoint& p : points) {
    // A line with a larger share and no larger comm is below one already kept for every x >= 0.
    if (!hull.empty() && p.comm <= hull.back().comm) continue;
    // Kept lines now rise in share and comm. The middle one of three is never on top when the
    // third overtakes it no later than it overtakes the first: (c3-c2)/(s3-s2) >= (c2-c1)/(s2-s1).
    while (hull.size() >= 2) {
      const OverlapPoint& a = hull[hull.size() - 2];
      const OverlapPoint& b = hull.back();
      if ((p.comm - b.comm) * (b.share - a.share) < (b.comm - a.comm) * (p.share - b.share)) break;
      hull.pop_back();
    }
    hull.push_back(p);
  }
  return hull;
}

std::vector<OverlapPoint> reduction_points(const std::vector<double>& seconds, const std::vector<double>& left_share) {
  std::vector<OverlapPoint> points(seconds.size());
  double left = 0;
  for (size_t k = seconds.size(); k-- > 0;) {
    left += seconds[k];
    points[k] = {left, left_share[k]};
  }
  return upper_envelope(points);
}

std::vector<OverlapPoint> gather_points(const std::vector<double>& seconds, const std::vector<double>& start_share) {
  std::vector<OverlapPoint> points;
  double done = 0;
  for (size_t k = 0; k < seconds.size(); ++k) {
    done += seconds[k];
    points.push_back({done, start_share[k]});
  }
  return upper_envelope(points);
}

double overlap_excess(const std::vector<OverlapPoint>& points, double comm_scale, double share_scale, double pass) {
  if (points.empty()) return 0;
  double most = points.front().comm * comm_scale - points.front().share * share_scale * pass;
  for (const OverlapPoint& p : points) most = std::max(most, p.comm * comm_scale - p.share * share_scale * pass);
  return most;
}

}  // namespace trainsim
