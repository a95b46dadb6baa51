// Error statistics of a validation, on hand-made numbers.
#include <catch2/catch.hpp>

#include "sim/validate/error_stats.hpp"

using namespace trainsim;

TEST_CASE("percent error is (predicted - measured) / measured x 100, positive when the prediction is slower",
          "[validate]") {
  CHECK(percent_error(110, 100) == Approx(10.0));   // 10 s more than 100 s measured
  CHECK(percent_error(90, 100) == Approx(-10.0));
  CHECK(percent_error(3.0, 4.0) == Approx(-25.0));  // (3 - 4) / 4 = -0.25
  CHECK(percent_error(2.5, 2.5) == 0.0);
}

TEST_CASE("mean and max absolute error ignore the sign and name the worst row", "[validate]") {
  // |+5| + |-15| + |+10| = 30 over 3 rows = 10; the largest magnitude is 15 (row b).
  const ErrorSummary s = summarize_errors({{"a", 5.0}, {"b", -15.0}, {"c", 10.0}});
  CHECK(s.count == 3);
  CHECK(s.mean_abs_percent == Approx(10.0));
  CHECK(s.max_abs_percent == Approx(15.0));
  CHECK(s.worst == "b");
  const ErrorSummary none = summarize_errors({});
  CHECK(none.count == 0);
  CHECK(none.mean_abs_percent == 0.0);
  CHECK(none.max_abs_percent == 0.0);
}

TEST_CASE("errors are summarised per group key, keys sorted", "[validate]") {
  // check: |-20| and |+4| -> mean 12, max 20 (r1); calibrate: |+2| and |-6| -> mean 4, max 6 (r4).
  const auto groups = summarize_by({"check", "calibrate", "check", "calibrate"},
                                   {{"r1", -20.0}, {"r2", 2.0}, {"r3", 4.0}, {"r4", -6.0}});
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].key == "calibrate");
  CHECK(groups[0].summary.count == 2);
  CHECK(groups[0].summary.mean_abs_percent == Approx(4.0));
  CHECK(groups[0].summary.max_abs_percent == Approx(6.0));
  CHECK(groups[0].summary.worst == "r4");
  CHECK(groups[1].key == "check");
  CHECK(groups[1].summary.mean_abs_percent == Approx(12.0));
  CHECK(groups[1].summary.worst == "r1");
}

TEST_CASE("calibration minimises the mean of squared relative errors", "[validate]") {
  // (110 - 100)/100 = 0.1 -> 0.01; (80 - 100)/100 = -0.2 -> 0.04; mean (0.01 + 0.04) / 2 = 0.025.
  CHECK(mean_squared_relative_error({{110, 100}, {80, 100}}) == Approx(0.025));
  // Relative, not absolute: 2 s off a 20 s row weighs as much as 0.1 s off a 1 s row (0.1^2 each).
  CHECK(mean_squared_relative_error({{22, 20}}) == Approx(mean_squared_relative_error({{1.1, 1.0}})));
  CHECK(mean_squared_relative_error({}) == 0.0);
}
