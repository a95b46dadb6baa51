// The k best strategies found so far, best first, with distinct times: of strategies with equal
// times the first found is held and the others counted (the search's order is fixed, so the
// result is deterministic). threshold() is the time a new strategy must
// beat to enter: the k-th best, or infinity while fewer than k are held.
#pragma once
#include <cmath>
#include <limits>
#include <vector>

#include "sim/search/search.hpp"

namespace trainsim {

class TopK {
 public:
  explicit TopK(int k) : k_(static_cast<size_t>(k)) {}
  [[nodiscard]] double threshold() const {
    return held_.size() < k_ ? std::numeric_limits<double>::infinity() : held_.back().estimate.iteration_time;
  }
  // A strategy whose time equals a held one's (to 1e-12 relative: same terms, e.g. a mesh order
  // that puts every group on the same links) counts as that one's equivalent and is not held;
  // else it is kept when it beats threshold(), and the k-th best drops out.
  void push(RankedStrategy s) {
    const double t = s.estimate.iteration_time;
    for (RankedStrategy& h : held_) {
      if (std::fabs(h.estimate.iteration_time - t) <= 1e-12 * t) {
        ++h.equivalents;
        return;
      }
    }
    if (t >= threshold()) return;
    auto at = held_.begin();
    while (at != held_.end() && at->estimate.iteration_time <= s.estimate.iteration_time) ++at;
    held_.insert(at, std::move(s));
    if (held_.size() > k_) held_.pop_back();
  }
  [[nodiscard]] std::vector<RankedStrategy> take() { return std::move(held_); }

 private:
  size_t k_;
  std::vector<RankedStrategy> held_;
};

}  // namespace trainsim
