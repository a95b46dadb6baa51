// Fit of theta (iteration_theta.hpp) to replayed iterations. Each scale is fitted on its own term:
// weighted linear least squares through the origin of the replay's term against the formula's term
// at theta = 1 (weights 1/T_replay^2, so errors count relative to the iteration), clamped to
// [0.5, 2], and kept only where it also lowers the iteration-time loss below. The contention
// multipliers likewise, on the communication terms: the replay's excess over the formula without
// link sharing against the time the formula loses to it on that tier. The two coefficients
// no single term shows (the DP overlap share and the interference multiplier) are then fitted on
// the iteration time by a golden-section line search minimising sum |T_formula - T_replay| /
// T_replay (absolute, not squared: the few runs the formulas miss badly would otherwise pull every
// coefficient). Finally each coefficient is kept only where it passes 2-fold cross-validation on
// the runs (fitted on one half, it must lower the other half's loss); else it stays 1.
// Deterministic: the same runs give the same theta. Pure.
#pragma once
#include <array>
#include <vector>

#include "sim/analytic/iteration_model.hpp"

namespace trainsim {

struct ObservedIteration {
  double iteration_time = 0;                    // seconds, from the replay
  std::array<double, kIterationTerms> terms{};  // seconds, mean over devices, in IterationTerm order
};

struct FitErrors {
  double mean = 0, max = 0;                     // |T_formula - T_replay| / T_replay over the runs
  std::array<double, kIterationTerms> term{};   // mean |term_formula - term_replay| / T_replay
};

[[nodiscard]] IterationTheta fit_theta(const std::vector<IterationInputs>& inputs,
                                       const std::vector<ObservedIteration>& observed);
[[nodiscard]] FitErrors fit_errors(const std::vector<IterationInputs>& inputs,
                                   const std::vector<ObservedIteration>& observed, const IterationTheta& theta);

}  // namespace trainsim
