// What `trainsim fit` prints: formula-vs-replay errors per term on the training and held-out runs,
// dense and MoE apart, and the runs the formulas miss most.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "sim/analytic/theta_fit.hpp"
#include "sim/cli/fit_design.hpp"

namespace trainsim {

// Runs with their inputs and replayed terms; index[i] is the design point of entry i.
struct FitSet {
  std::vector<IterationInputs> inputs;
  std::vector<ObservedIteration> observed;
  std::vector<size_t> index;  // design point of each entry
};

[[nodiscard]] FitSet subset(const FitSet& all, const std::vector<size_t>& which);
[[nodiscard]] std::string pct(double fraction);  // "1.23%"

// Per-term and iteration errors, train and test with theta, and test with theta = 1.
void print_errors(std::ostream& out, const FitSet& train, const FitSet& test, const IterationTheta& th,
                  const IterationTheta& plain);
// Iteration-time errors of the held-out runs, dense and MoE apart.
void print_by_kind(std::ostream& out, const FitSet& test, const std::vector<DesignPoint>& points,
                   const IterationTheta& th);
// The five runs of `set` the formula misses most, worst first.
void print_worst(std::ostream& out, const char* title, const FitSet& set, const std::vector<DesignPoint>& points,
                 const IterationTheta& th);

}  // namespace trainsim
