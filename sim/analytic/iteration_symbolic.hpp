// The iteration formulas as text a person can read and a CAS can parse: Python/SymPy statements
// (`from sympy import *` then exec) assigning theta, the run's extracted numbers per stage, and the
// expressions of iteration_model.hpp over them, ending in T, the iteration time in seconds. Pure:
// returns the text.
#pragma once
#include <string>

#include "sim/analytic/iteration_inputs.hpp"
#include "sim/analytic/iteration_theta.hpp"

namespace trainsim {

[[nodiscard]] std::string symbolic_iteration(const IterationInputs& in, const IterationTheta& theta);

}  // namespace trainsim
