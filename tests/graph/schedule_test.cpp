// Pipeline schedules: registry, step lists, and peak activations per stage.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/graph/schedule.hpp"
#include "sim/graph/schedule_analysis.hpp"

using namespace trainsim;

namespace {

using Steps = std::vector<ScheduleStep>;

ScheduleStep F(int mb, int chunk = 0) { return {Phase::kForward, mb, chunk}; }
ScheduleStep B(int mb, int chunk = 0) { return {Phase::kBackward, mb, chunk}; }

bool same(const Steps& a, const Steps& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const ScheduleStep& x, const ScheduleStep& y) {
    return x.phase == y.phase && x.microbatch == y.microbatch && x.chunk == y.chunk;
  });
}

}  // namespace

TEST_CASE("the registry lists every schedule by name and rejects unknown names listing the valid ones",
          "[schedule]") {
  std::vector<std::string> names;
  for (const ScheduleInfo& s : schedules()) names.push_back(s.name);
  CHECK(names == std::vector<std::string>{"1f1b", "gpipe", "interleaved", "zb-h1"});
  CHECK(find_schedule("zb-h1").name == "zb-h1");
  CHECK_THROWS_AS(find_schedule("pipedream"), UserError);
  CHECK_THROWS_WITH(find_schedule("pipedream"), Catch::Contains("1f1b, gpipe, interleaved, zb-h1"));
}

TEST_CASE("every schedule runs each (phase, micro-batch, chunk) once, F before B and Bi before W", "[schedule]") {
  struct Case { const char* name; int p, m, v; };
  const Case cases[] = {{"gpipe", 4, 6, 1},       {"1f1b", 4, 6, 1},        {"1f1b", 8, 3, 1},
                        {"interleaved", 4, 8, 2}, {"interleaved", 3, 3, 4}, {"interleaved", 2, 6, 1},
                        {"zb-h1", 4, 6, 1},       {"zb-h1", 5, 2, 1}};
  for (const Case& c : cases) {
    const ScheduleParams params{c.p, c.m, c.v};
    for (int s = 0; s < c.p; ++s) {
      const Steps steps = find_schedule(c.name).steps(params, s);
      INFO(c.name << " p " << c.p << " m " << c.m << " v " << c.v << " stage " << s);
      CHECK(schedule_defect(steps, params).empty());
      const size_t per_unit = std::string(c.name) == "zb-h1" ? 3 : 2;  // F+B, or F+Bi+W
      CHECK(steps.size() == per_unit * c.m * c.v);
    }
  }
}

TEST_CASE("the step checker names a duplicate, a missing step and a backward before its forward", "[schedule]") {
  const ScheduleParams params{1, 2, 1};
  CHECK(schedule_defect({F(0), B(0), F(1), B(1)}, params).empty());
  CHECK_THAT(schedule_defect({F(0), B(0), F(1), B(1), B(1)}, params), Catch::Contains("twice"));
  CHECK_THAT(schedule_defect({F(0), B(0), F(1)}, params), Catch::Contains("lacks"));
  CHECK_THAT(schedule_defect({B(0), F(0), F(1), B(1)}, params), Catch::Contains("before its F"));
  CHECK_THAT(schedule_defect({F(0), B(0), F(2), B(2)}, params), Catch::Contains("out of range"));
  const Steps w_first = {F(0), {Phase::kWeightGrad, 0, 0}, {Phase::kBackwardInput, 0, 0}};
  CHECK_THAT(schedule_defect(w_first, ScheduleParams{1, 1, 1}), Catch::Contains("before its Bi"));
}

// p 4, m 6. Stage 0: warm-up min(4-0-1, 6) = 3 forwards, 3 pairs (F3 B0)(F4 B1)(F5 B2), drain B3..B5.
// Stage 3 (last): no warm-up, strict alternation.
TEST_CASE("1F1B stage i runs min(p-i-1, m) warm-up forwards, then alternates, then drains", "[schedule]") {
  const ScheduleInfo& s = find_schedule("1f1b");
  CHECK(same(s.steps({4, 6, 1}, 0), {F(0), F(1), F(2), F(3), B(0), F(4), B(1), F(5), B(2), B(3), B(4), B(5)}));
  CHECK(same(s.steps({4, 6, 1}, 3), {F(0), B(0), F(1), B(1), F(2), B(2), F(3), B(3), F(4), B(4), F(5), B(5)}));
  // m 2 < p 4: stage 0's warm-up is capped at m = 2, so it is GPipe's order.
  CHECK(same(s.steps({4, 2, 1}, 0), {F(0), F(1), B(0), B(1)}));
}

TEST_CASE("1F1B stage i holds min(p-i, m) micro-batches at its peak, GPipe holds all m", "[schedule]") {
  for (int p : {1, 2, 4, 8}) {
    for (int m : {1, 3, 4, 8, 13}) {
      for (int s = 0; s < p; ++s) {
        CHECK(peak_in_flight(find_schedule("1f1b").steps({p, m, 1}, s)) == std::min(p - s, m));
        CHECK(peak_in_flight(find_schedule("gpipe").steps({p, m, 1}, s)) == m);
      }
    }
  }
}

// p 2, m 4, v 2 on stage 0: warm-up 2(2-0-1) + (2-1)*2 = 4 of the m*v = 8 virtual forwards.
// Forward k: round of p*v = 4; micro-batch (k/4)*2 + k%2, chunk (k%4)/2:
//   k 0..7 -> (0,0) (1,0) (0,1) (1,1) (2,0) (3,0) (2,1) (3,1).
// Backward k: the same micro-batch, chunk v-1-(k%4)/2: (0,1) (1,1) (0,0) (1,0) (2,1) (3,1) (2,0) (3,0).
TEST_CASE("interleaved 1F1B walks the chunks in rounds of p micro-batches, Megatron's order", "[schedule]") {
  const Steps expected = {F(0, 0), F(1, 0), F(0, 1), F(1, 1),                    // warm-up
                          F(2, 0), B(0, 1), F(3, 0), B(1, 1), F(2, 1), B(0, 0),  // steady
                          F(3, 1), B(1, 0), B(2, 1), B(3, 1), B(2, 0), B(3, 0)};  // steady, drain
  CHECK(same(find_schedule("interleaved").steps({2, 4, 2}, 0), expected));
}

// Stage s holds warm-up + 1 = 2(p-s-1) + (v-1)p + 1 = vp + p - 2s - 1 (chunk, micro-batch) units, or all
// m*v when the warm-up covers everything. A unit is 1/v of a stage's layers, so stage 0 holds
// (vp + p - 1)/v = p(1 + (p-1)/(pv)) micro-batches' worth: Korthikanti et al. 2022 §4.2.3 factor.
// E.g. p 4, v 2, m 8: stage 0 holds 8 + 4 - 1 = 11 units = 5.5 micro-batches = 4 * (1 + 3/8).
TEST_CASE("interleaved stage 0 holds p(1 + (p-1)/(pv)) micro-batches of activations", "[schedule]") {
  struct Case { int p, m, v; };
  for (const Case& c : {Case{4, 8, 2}, Case{4, 4, 2}, Case{2, 6, 3}, Case{8, 16, 4}, Case{3, 3, 2}}) {
    for (int s = 0; s < c.p; ++s) {
      const int expected = std::min(c.v * c.p + c.p - 2 * s - 1, c.m * c.v);
      CHECK(peak_in_flight(find_schedule("interleaved").steps({c.p, c.m, c.v}, s)) == expected);
    }
  }
  const double stage0_microbatches = peak_in_flight(find_schedule("interleaved").steps({4, 8, 2}, 0)) / 2.0;
  CHECK(stage0_microbatches == Approx(4 * (1 + 3.0 / 8)));
}

TEST_CASE("interleaved needs m to be a multiple of p, and with one chunk is exactly 1F1B", "[schedule]") {
  CHECK_THROWS_AS(find_schedule("interleaved").steps({4, 6, 2}, 0), StrategyError);
  CHECK_THROWS_WITH(find_schedule("interleaved").steps({4, 6, 2}, 0), Catch::Contains("multiple"));
  for (int s = 0; s < 4; ++s) {
    CHECK(same(find_schedule("interleaved").steps({4, 6, 1}, s), find_schedule("1f1b").steps({4, 6, 1}, s)));
  }
}

TEST_CASE("schedules without model chunks reject virtual_stages above 1, and bad sizes are errors",
          "[schedule]") {
  for (const char* name : {"gpipe", "1f1b", "zb-h1"}) {
    CHECK_THROWS_AS(find_schedule(name).steps({4, 8, 2}, 0), StrategyError);
    CHECK_THROWS_AS(find_schedule(name).steps({4, 0, 1}, 0), StrategyError);
    CHECK_THROWS_AS(find_schedule(name).steps({4, 8, 1}, 4), StrategyError);  // stage out of 0..3
  }
}

// ZB-H1 keeps 1F1B's F/B order, so its peak is 1F1B's min(p-s, m); stage s lets at most s W passes
// wait (Qi et al. 2024 §2.3: worker i (1-based) holds (p-i+1) M_B + (i-1) M_W).
TEST_CASE("ZB-H1 holds 1F1B's activations and lets at most s weight-gradient passes wait on stage s",
          "[schedule]") {
  for (int p : {2, 4, 6}) {
    for (int m : {1, 3, 6, 12}) {
      for (int s = 0; s < p; ++s) {
        const Steps steps = find_schedule("zb-h1").steps({p, m, 1}, s);
        CHECK(peak_in_flight(steps) == std::min(p - s, m));
        int waiting = 0, most = 0;
        for (const ScheduleStep& st : steps) {
          if (st.phase == Phase::kBackwardInput) most = std::max(most, ++waiting);
          if (st.phase == Phase::kWeightGrad) --waiting;
        }
        CHECK(most == std::min(s + 1, m));  // s waiting plus the one just produced, before it runs
      }
    }
  }
}
