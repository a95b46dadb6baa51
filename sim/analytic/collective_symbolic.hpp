// The per-call collective times behind the iteration formulas' communication numbers, as SymPy
// text in the model's dimensions and the platform's alpha-beta: for rank 0, each dimension's
// payload S in b, s, h, e, t, cp (and k, c for MoE), and each collective's closed form
// (collective_time.hpp) with the group's n, g and its tier's alpha, beta substituted. Pure.
#pragma once
#include <string>

#include "sim/config/run_spec.hpp"

namespace trainsim {

[[nodiscard]] std::string symbolic_collectives(const RunSpec& run);

}  // namespace trainsim
