#include <catch2/catch.hpp>
#include <cmath>

#include "sim/validate/nelder_mead.hpp"

using namespace trainsim;

TEST_CASE("Nelder-Mead finds the minimum of a narrow diagonal valley inside a box", "[validate]") {
  // f = (x - 0.6)^2 + 20 (x + y - 1.1)^2: a valley along x + y = 1.1 with its lowest point at
  // (0.6, 0.5). One coordinate at a time would zig-zag down it; the simplex follows it.
  int calls = 0;
  auto f = [&](const std::vector<double>& p) {
    ++calls;
    return std::pow(p[0] - 0.6, 2) + 20 * std::pow(p[0] + p[1] - 1.1, 2);
  };
  const NelderMeadResult r = nelder_mead_minimize(f, {0.9, 0.9}, {0.3, 0.3}, {1.0, 1.0}, 80);
  CHECK(calls == 80);
  CHECK(r.evaluations.size() == 80);
  CHECK(std::fabs(r.best_x[0] - 0.6) < 0.01);
  CHECK(std::fabs(r.best_x[1] - 0.5) < 0.01);
}

TEST_CASE("Nelder-Mead keeps every evaluation inside the box", "[validate]") {
  // The unconstrained minimum (2, 2) lies outside [0, 1]^2: points are clamped, the best is the corner.
  auto f = [](const std::vector<double>& p) { return std::pow(p[0] - 2, 2) + std::pow(p[1] - 2, 2); };
  const NelderMeadResult r = nelder_mead_minimize(f, {0.5, 0.5}, {0.0, 0.0}, {1.0, 1.0}, 40);
  for (const auto& [x, value] : r.evaluations) {
    CHECK(x[0] >= 0.0);
    CHECK(x[0] <= 1.0);
    CHECK(x[1] >= 0.0);
    CHECK(x[1] <= 1.0);
  }
  CHECK(r.best_x[0] == Approx(1.0).margin(1e-3));
  CHECK(r.best_x[1] == Approx(1.0).margin(1e-3));
}
