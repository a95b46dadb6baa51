// A lower bound on the formulas' iteration time (sim/analytic/iteration_model) that holds for
// every communication setting of a compute group: it keeps only what the group fixes (each
// stage's compute per micro-batch and the schedule) and drops every communication, optimizer and
// interference input. Why it is a bound, for theta >= 0 and comm_interference >= 0:
//   T >= end of stage 0 >= pipeline = m max_s t_s + b (bubble + hops), and
//   t_s >= c (F + Bi + W + R)_s, since exposed comm and interference only add to it;
//   the bubble is the schedule's closed form over the mean chunk pass of the p - 1 stages other
//   than the slowest; comm only adds to F and Bi there and every registered closed form is
//   non-decreasing in F and Bi, so it is at least the minimum, over which stage is left out, of
//   the closed form with compute alone; hops are >= 0.
// The search prunes a group whose bound is not below the k-th best time found (sim/search/search).
#pragma once
#include "sim/analytic/iteration_inputs.hpp"
#include "sim/analytic/iteration_theta.hpp"

namespace trainsim {

// Seconds; <= estimate_iteration(x, theta).iteration_time for every x that differs from `in` only
// in communication, optimizer and overlap inputs.
[[nodiscard]] double iteration_lower_bound(const IterationInputs& in, const IterationTheta& theta);

// Whether the bound argument holds for theta: every coefficient and the interference factor >= 0.
[[nodiscard]] bool bound_applies(const IterationInputs& in, const IterationTheta& theta);

}  // namespace trainsim
