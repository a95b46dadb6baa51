// Bounded minimisation in a few dimensions by the Nelder-Mead simplex method (Nelder & Mead 1965,
// standard coefficients: reflection 1, expansion 2, contraction 1/2, shrink 1/2). Used where one
// parameter at a time would crawl along a valley: two efficiencies that trade against each other.
// Points are clamped into the box, so every evaluation lies inside it.
#pragma once
#include <functional>
#include <vector>

namespace trainsim {

struct NelderMeadResult {
  std::vector<double> best_x;                                  // the evaluated point with the smallest value
  double best_value = 0;
  std::vector<std::pair<std::vector<double>, double>> evaluations;  // (x, f(x)) in evaluation order
};

// Starts from `start` and a simplex whose other vertices step 15% of each interval from it;
// evaluates `f` at most `max_evaluations` times (at least n + 1). lo, hi and start have one
// entry per dimension, with lo < start < hi.
[[nodiscard]] NelderMeadResult nelder_mead_minimize(const std::function<double(const std::vector<double>&)>& f,
                                                    const std::vector<double>& start, const std::vector<double>& lo,
                                                    const std::vector<double>& hi, int max_evaluations);

}  // namespace trainsim
