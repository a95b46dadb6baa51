// Scoring of ranking groups (sim/validate/ranking_score): Spearman's rho of predicted against measured
// iteration time, whether the measured fastest is predicted fastest, and the time and memory errors.
// Every expected figure is worked by hand in a comment.
#include <catch2/catch.hpp>
#include <cmath>

#include "sim/validate/ranking_score.hpp"

using namespace trainsim;

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
}

TEST_CASE("three rows: rho from the rank differences and the best row missed", "[validate]") {
  // measured 10 20 30 -> ranks 1 2 3; predicted 12 11 40 -> ranks 2 1 3; d = (1, 1, 0), sum d^2 = 2;
  // rho = 1 - 6 * 2 / (3 * (9 - 1)) = 0.5. Fastest measured: a; fastest predicted: b.
  // Errors: a +20%, b (11 - 20) / 20 = -45%, c (40 - 30) / 30 = +33.33%: mean |error| 32.78%, max 45% (b).
  const GroupScore s = score_group("g", Split::kCheck, "hw", {{"a", 10, 12}, {"b", 20, 11}, {"c", 30, 40}});
  CHECK(s.rows == 3);
  CHECK(s.spearman == Approx(0.5));
  CHECK(s.measured_best == "a");
  CHECK(s.predicted_best == "b");
  CHECK_FALSE(s.best_predicted_best);
  CHECK(s.time_error.mean_abs_percent == Approx((20.0 + 45.0 + 100.0 / 3) / 3));
  CHECK(s.time_error.max_abs_percent == Approx(45));
  CHECK(s.time_error.worst == "b");
  CHECK(s.memory_error.count == 0);  // no row measured memory
}

TEST_CASE("a measured tie shares its rank and either tied row counts as the best", "[validate]") {
  // measured 10 10 20 -> ranks 1.5 1.5 3; predicted 5 6 7 -> ranks 1 2 3. Centred ranks (-0.5, -0.5, 1) and
  // (-1, 0, 1): covariance 0.5 + 0 + 1 = 1.5, variances 1.5 and 2: rho = 1.5 / sqrt(3) = 0.8660.
  // The measured best is rows a and b (tied); a is predicted fastest: a hit.
  const GroupScore s = score_group("g", Split::kCheck, "hw", {{"a", 10, 5}, {"b", 10, 6}, {"c", 20, 7}});
  CHECK(s.spearman == Approx(1.5 / std::sqrt(3.0)));
  CHECK(s.measured_best == "a");
  CHECK(s.best_predicted_best);
  // The same tie with b predicted fastest is also a hit: b is one of the measured best.
  CHECK(score_group("g", Split::kCheck, "hw", {{"a", 10, 6}, {"b", 10, 5}, {"c", 20, 7}}).best_predicted_best);
}

TEST_CASE("a group of two is rho plus or minus one, and memory is compared only where measured", "[validate]") {
  // measured 100 > 90 but predicted 80 < 85: the order is reversed, rho = -1, the best (b) is missed.
  // Memory: a measured 40 GiB, predicted 30 GiB -> -25%; b has no measurement and is left out.
  const GroupScore s = score_group("g", Split::kCalibrate, "hw",
                                   {{"a", 100, 80, 40 * kGiB, 30 * kGiB}, {"b", 90, 85, 0, 50 * kGiB}});
  CHECK(s.spearman == Approx(-1));
  CHECK(s.measured_best == "b");
  CHECK(s.predicted_best == "a");
  CHECK_FALSE(s.best_predicted_best);
  CHECK(s.memory_error.count == 1);
  CHECK(s.memory_error.mean_abs_percent == Approx(25));
  CHECK(s.memory_errors.front().second == Approx(-25));
  // The same order predicted: rho = +1 and a hit.
  const GroupScore same = score_group("g", Split::kCheck, "hw", {{"a", 100, 95}, {"b", 90, 85}});
  CHECK(same.spearman == Approx(1));
  CHECK(same.best_predicted_best);
}

TEST_CASE("the ranking summary averages rho and counts hits per split and over all groups", "[validate]") {
  // Check groups: rho 0.5 (miss) and 1 (hit) -> mean 0.75, 1 hit of 2; calibrate: rho -1, no hit.
  const std::vector<GroupScore> scores = {
      score_group("c1", Split::kCheck, "hw", {{"a", 10, 12}, {"b", 20, 11}, {"c", 30, 40}}),
      score_group("c2", Split::kCheck, "hw", {{"a", 100, 95}, {"b", 90, 85}}),
      score_group("k1", Split::kCalibrate, "hw", {{"a", 100, 80}, {"b", 90, 85}})};
  const auto summary = summarize_ranking(scores);
  REQUIRE(summary.size() == 3);
  CHECK(summary[0].key == "calibrate");
  CHECK(summary[0].groups == 1);
  CHECK(summary[0].mean_spearman == Approx(-1));
  CHECK(summary[0].best_hits == 0);
  CHECK(summary[1].key == "check");
  CHECK(summary[1].groups == 2);
  CHECK(summary[1].mean_spearman == Approx(0.75));
  CHECK(summary[1].best_hits == 1);
  CHECK(summary[1].time_error.count == 5);  // pooled over the rows of both groups
  CHECK(summary[2].key == "all");
  CHECK(summary[2].groups == 3);
  CHECK(summary[2].mean_spearman == Approx((0.5 + 1 - 1) / 3));
}
