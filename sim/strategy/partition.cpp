#include "sim/strategy/partition.hpp"

#include <algorithm>
#include <numeric>

namespace trainsim {
namespace {

// Parts of at most `bottleneck`, each taking as many items as fit while leaving one item for
// every part still to come; empty when that cannot give exactly `parts` parts.
std::vector<int> greedy_parts(const std::vector<double>& w, int parts, double bottleneck) {
  std::vector<int> out;
  const int n = static_cast<int>(w.size());
  int next = 0;
  for (int k = 0; k < parts; ++k) {
    const int must_leave = parts - k - 1;
    if (next >= n - must_leave) return {};
    double sum = w[static_cast<size_t>(next)];
    if (sum > bottleneck) return {};
    int count = 1;
    const bool last = k == parts - 1;
    while (next + count < n - must_leave && (last || sum + w[static_cast<size_t>(next + count)] <= bottleneck)) {
      sum += w[static_cast<size_t>(next + count)];
      ++count;
    }
    if (sum > bottleneck) return {};
    out.push_back(count);
    next += count;
  }
  return next == n ? out : std::vector<int>{};
}

}  // namespace

std::vector<int> balanced_stage_layers(const std::vector<double>& layer_weights, double embedding_weight,
                                       double output_weight, int stages) {
  std::vector<double> w = layer_weights;
  w.front() += embedding_weight;
  w.back() += output_weight;
  double lo = *std::max_element(w.begin(), w.end()), hi = std::accumulate(w.begin(), w.end(), 0.0);
  if (!greedy_parts(w, stages, lo).empty()) return greedy_parts(w, stages, lo);
  // Bisection on the bottleneck; 200 halvings take any double range down to adjacent values.
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (greedy_parts(w, stages, mid).empty() ? lo : hi) = mid;
  }
  return greedy_parts(w, stages, hi);
}

}  // namespace trainsim
