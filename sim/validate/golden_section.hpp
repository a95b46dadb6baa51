// Bounded one-dimensional minimisation by golden-section search (Kiefer 1953): keeps a bracket
// [a, b] and two interior points at the golden ratio, so each further evaluation shrinks the
// bracket by 1/φ ≈ 0.618. Assumes the function is unimodal on the interval.
#pragma once
#include <functional>
#include <vector>

namespace trainsim {

struct GoldenSectionResult {
  double best_x = 0;                              // the evaluated point with the smallest value
  double best_value = 0;
  std::vector<std::pair<double, double>> evaluations;  // (x, f(x)) in evaluation order
};

// Evaluates `f` exactly `evaluations` times (at least 2) inside (lo, hi); never at the ends.
[[nodiscard]] GoldenSectionResult golden_section_minimize(const std::function<double(double)>& f, double lo,
                                                          double hi, int evaluations);

}  // namespace trainsim
