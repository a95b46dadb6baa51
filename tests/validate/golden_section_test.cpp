// Golden-section search on functions whose minimum is known.
#include <catch2/catch.hpp>
#include <cmath>

#include "sim/validate/golden_section.hpp"

using namespace trainsim;

TEST_CASE("golden-section search finds a parabola's minimum to within the final bracket", "[validate]") {
  // After the first two evaluations every further one shrinks the bracket by 1/phi = 0.618, so 12
  // evaluations leave a bracket of (1.0 - 0.3) x 0.618^10 = 0.0057 holding the minimum at 0.7; the best
  // evaluated point lies inside it.
  int calls = 0;
  const auto r = golden_section_minimize(
      [&](double x) {
        ++calls;
        return (x - 0.7) * (x - 0.7);
      },
      0.3, 1.0, 12);
  CHECK(calls == 12);
  CHECK(r.evaluations.size() == 12);
  CHECK(std::fabs(r.best_x - 0.7) < 0.0057);
  CHECK(r.best_value == Approx((r.best_x - 0.7) * (r.best_x - 0.7)));
}

TEST_CASE("golden-section search stays inside the open interval and walks to the better end", "[validate]") {
  // f(x) = x decreases toward lo = 0.3: each step keeps the lower bracket; the best point approaches
  // 0.3 from above, within the final bracket width 0.0057, and no evaluation leaves (0.3, 1.0).
  const auto r = golden_section_minimize([](double x) { return x; }, 0.3, 1.0, 12);
  for (const auto& e : r.evaluations) {
    CHECK(e.first > 0.3);
    CHECK(e.first < 1.0);
  }
  CHECK(r.best_x - 0.3 < 0.0057);
  // The first two points sit at the golden ratio inside the interval: 1.0 - 0.618 x 0.7 and 0.3 + 0.618 x 0.7.
  CHECK(r.evaluations[0].first == Approx(1.0 - 0.6180339887 * 0.7));
  CHECK(r.evaluations[1].first == Approx(0.3 + 0.6180339887 * 0.7));
}
