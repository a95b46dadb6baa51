// The DP stream's race with a pass (sim/analytic/overlap_points): points worked by hand.
#include <catch2/catch.hpp>

#include "sim/analytic/overlap_points.hpp"

using namespace trainsim;

// Buckets of 2, 1, 1 s ready after 1/4, 1/2 and all of the backward: from each on 4, 2, 1 s
// remain, with 3/4, 1/2, 0 of the backward left. Lines 4 - 0.75x, 2 - 0.5x, 1: the middle one is
// below max(4 - 0.75x, 1) everywhere (at x = 4, where those two meet, it gives 0), so it goes.
TEST_CASE("reduction points: from each ready bucket on, with the share of the backward left", "[analytic][overlap]") {
  const std::vector<OverlapPoint> p = reduction_points({2, 1, 1}, {0.75, 0.5, 0});
  REQUIRE(p.size() == 2);
  CHECK(p[0].comm == Approx(1));
  CHECK(p[0].share == Approx(0));
  CHECK(p[1].comm == Approx(4));
  CHECK(p[1].share == Approx(0.75));
  // Backward 2: max(4 - 1.5, 1) = 2.5; backward 8: max(4 - 6, 1) = 1.
  CHECK(overlap_excess(p, 1, 1, 2) == Approx(2.5));
  CHECK(overlap_excess(p, 1, 1, 8) == Approx(1));
}

// A slow middle bucket stays on the envelope: 1, 4, 1 s ready after 1/4, 1/2, all. From each on
// 6, 5, 1 s with 3/4, 1/2, 0 left. At x = 8: 6 - 6 = 0, 5 - 4 = 1, 1: ties; at x = 6: 1.5, 2, 1,
// so the middle line is the maximum there and must be kept.
TEST_CASE("a bucket that holds the stream up stays among the points", "[analytic][overlap]") {
  const std::vector<OverlapPoint> p = reduction_points({1, 4, 1}, {0.75, 0.5, 0});
  CHECK(p.size() == 3);
  CHECK(overlap_excess(p, 1, 1, 6) == Approx(2));
  CHECK(overlap_excess(p, 2, 1, 0) == Approx(12));  // theta dp_scale 2, no pass: all of it twice
}

// Gathers of 1 s each for 3 buckets; the forward reaches them after 0, 1/4, 3/4 of it: lines 1,
// 2 - 0.25x, 3 - 0.75x. With a forward of 4: max(1, 1, 0) = 1.
TEST_CASE("gather points: gathers up to each bucket, with the share of the forward before it", "[analytic][overlap]") {
  const std::vector<OverlapPoint> p = gather_points({1, 1, 1}, {0, 0.25, 0.75});
  CHECK(overlap_excess(p, 1, 1, 4) == Approx(1));
  CHECK(overlap_excess(p, 1, 1, 0) == Approx(3));
  CHECK(overlap_excess({}, 1, 1, 1) == 0);
}
