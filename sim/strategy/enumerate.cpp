#include "sim/strategy/enumerate.hpp"

#include <string>

#include "sim/core/error.hpp"

namespace trainsim {
namespace {

void require_positive(const char* what, int value) {
  if (value < 1) {
    throw StrategyError(std::string("enumerating strategies: ") + what + " must be at least 1 (got " +
                        std::to_string(value) + ")");
  }
}

}  // namespace

std::vector<ParallelDegrees> enumerate_degrees(int devices, int heads, int max_tp) {
  require_positive("devices", devices);
  require_positive("attention heads", heads);
  require_positive("the tp bound", max_tp);
  std::vector<ParallelDegrees> out;
  // tp: powers of two dividing both the heads (each TP rank owns whole heads) and the devices.
  for (int tp = 1; tp <= max_tp && heads % tp == 0 && devices % tp == 0; tp *= 2) {
    const int rest = devices / tp;
    for (int pp = 1; pp <= rest; ++pp) {
      if (rest % pp != 0) continue;
      const int rest_pp = rest / pp;
      for (int cp = 1; cp <= rest_pp; ++cp) {
        if (rest_pp % cp == 0) out.push_back(ParallelDegrees{tp, pp, rest_pp / cp, cp});
      }
    }
  }
  return out;
}

}  // namespace trainsim
