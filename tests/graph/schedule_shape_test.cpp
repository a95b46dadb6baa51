// The closed forms of sim/strategy/schedule_shape against each registered schedule's expanded
// steps: warm-up depth and peak in-flight counted from the steps, bubble from the event evaluation
// of all stages (sim/graph/schedule_analysis). Every registered schedule must have a closed form.
#include <catch2/catch.hpp>
#include <algorithm>
#include <vector>

#include "sim/graph/schedule.hpp"
#include "sim/graph/schedule_analysis.hpp"
#include "sim/strategy/schedule_shape.hpp"

using namespace trainsim;

namespace {

// Forwards before the first backward (B or Bi) of the stage: the warm-up, plus the first forward of
// the steady state when there is one.
int forwards_before_backward(const std::vector<ScheduleStep>& steps) {
  int forwards = 0;
  for (const ScheduleStep& s : steps) {
    if (s.phase == Phase::kBackward || s.phase == Phase::kBackwardInput) break;
    if (s.phase == Phase::kForward) ++forwards;
  }
  return forwards;
}

// The (p, m, v) a schedule accepts from a small grid: v > 1 only where it has chunks, m % p == 0
// where the schedule demands it (steps() throws otherwise).
std::vector<PipelineShape> shapes_for(const ScheduleInfo& schedule) {
  std::vector<PipelineShape> out;
  for (int p : {1, 2, 3, 4, 8})
    for (int m : {1, 2, 3, 4, 5, 8, 12, 16})
      for (int v : {1, 2, 3, 4}) {
        try {
          (void)schedule.steps({p, m, v}, 0);
          out.push_back({p, m, v});
        } catch (const std::exception&) {
        }
      }
  return out;
}

// shapes_for, and for the interleaved schedule with chunks also each shape with the warm-up forward
// Megatron-Core's combined 1F1B adds (PipelineShape::extra_warmup).
std::vector<PipelineShape> warmup_shapes_for(const ScheduleInfo& schedule) {
  std::vector<PipelineShape> out = shapes_for(schedule);
  if (schedule.name != "interleaved") return out;
  for (PipelineShape shape : shapes_for(schedule))
    if (shape.virtual_stages > 1) {
      shape.extra_warmup = 1;
      out.push_back(shape);
    }
  return out;
}

ScheduleParams params_of(const PipelineShape& shape) {
  return {shape.stages, shape.microbatches, shape.virtual_stages, shape.extra_warmup};
}

}  // namespace

TEST_CASE("every registered pipeline schedule has a closed form", "[schedule][strategy]") {
  for (const ScheduleInfo& s : schedules()) {
    INFO(s.name);
    CHECK_NOTHROW(find_schedule_closed_form(s.name));
  }
  CHECK_THROWS_WITH(find_schedule_closed_form("nope"), Catch::Contains("valid: 1f1b, gpipe, interleaved, zb-h1"));
}

TEST_CASE("closed-form warm-up depth and peak in-flight equal the counts of the expanded steps", "[schedule][strategy]") {
  for (const ScheduleInfo& schedule : schedules()) {
    const ScheduleClosedForm& form = find_schedule_closed_form(schedule.name);
    for (const PipelineShape& shape : warmup_shapes_for(schedule)) {
      for (int stage = 0; stage < shape.stages; ++stage) {
        INFO(schedule.name << " p " << shape.stages << " m " << shape.microbatches << " v " << shape.virtual_stages
                           << " extra warm-up " << shape.extra_warmup << " stage " << stage);
        const auto steps = schedule.steps(params_of(shape), stage);
        const int all_forwards = shape.microbatches * shape.virtual_stages;
        CHECK(std::min(form.warmup_forwards(shape, stage) + 1, all_forwards) == forwards_before_backward(steps));
        CHECK(form.peak_in_flight(shape, stage) == peak_in_flight(steps));
      }
    }
  }
}

namespace {
// Max over the stage's step prefixes of the units of one local chunk held (forwards of it run,
// backward not yet: B, or Bi for split schedules).
int chunk_peak_from_steps(const std::vector<ScheduleStep>& steps, int chunk) {
  int held = 0, most = 0;
  for (const ScheduleStep& s : steps) {
    if (s.chunk != chunk) continue;
    if (s.phase == Phase::kForward) most = std::max(most, ++held);
    if (s.phase == Phase::kBackward || s.phase == Phase::kBackwardInput) --held;
  }
  return most;
}
}  // namespace

TEST_CASE("closed-form in-flight units of each chunk equal the counts of the expanded steps", "[schedule][strategy]") {
  for (const ScheduleInfo& schedule : schedules()) {
    const ScheduleClosedForm& form = find_schedule_closed_form(schedule.name);
    for (const PipelineShape& shape : warmup_shapes_for(schedule)) {
      for (int stage = 0; stage < shape.stages; ++stage) {
        const auto steps = schedule.steps(params_of(shape), stage);
        for (int chunk = 0; chunk < shape.virtual_stages; ++chunk) {
          INFO(schedule.name << " p " << shape.stages << " m " << shape.microbatches << " v " << shape.virtual_stages
                             << " extra warm-up " << shape.extra_warmup << " stage " << stage << " chunk " << chunk);
          CHECK(form.chunk_peak_in_flight(shape, stage, chunk) == chunk_peak_from_steps(steps, chunk));
        }
      }
    }
  }
}

TEST_CASE("interleaving holds the output layer's logits for one micro-batch on the last stage, counted by hand", "[schedule][strategy]") {
  // p 2, v 2, m 4. Last stage: warm-up 2(p-1-1) + (v-1)p = 2 forwards of chunk 0, then F2 (mb 0,
  // chunk 1), B0 (mb 0, chunk 1), F3 (mb 1, chunk 1), B1 (mb 1, chunk 1), ...: chunk 1 never holds more
  // than 1 unit, while the stage holds 3. First stage: warm-up 4 = mb 0-1 of chunk 0, mb 0-1 of chunk
  // 1; then F4 (mb 2, chunk 0), B0 (chunk 1), F5 (mb 3, chunk 0): chunk 0 peaks at 4 of the stage's 5.
  const ScheduleClosedForm& form = find_schedule_closed_form("interleaved");
  const PipelineShape shape{2, 4, 2};
  CHECK(form.peak_in_flight(shape, 1) == 3);
  CHECK(form.chunk_peak_in_flight(shape, 1, 1) == 1);
  CHECK(form.peak_in_flight(shape, 0) == 5);
  CHECK(form.chunk_peak_in_flight(shape, 0, 0) == 4);
}

// Makespan of the event evaluation = busy m v (F + Bi + W) + the closed-form bubble, for pass
// costs with W no larger than F or Bi (Qi et al. 2024 assume comparable F, B, W; ZB-H1's cool-down
// can hold at most the W passes that fit beside the backward chain).
TEST_CASE("closed-form bubble equals the idle time of the event evaluation of the steps", "[schedule][strategy]") {
  const std::vector<ChunkPassTimes> costs = {{1.0, 1.0, 1.0}, {1.0, 2.0, 0.0}, {1.0, 2.0, 1.0}, {2.0, 3.0, 0.5}};
  for (const ScheduleInfo& schedule : schedules()) {
    const ScheduleClosedForm& form = find_schedule_closed_form(schedule.name);
    for (const PipelineShape& shape : warmup_shapes_for(schedule)) {  // the extra warm-up leaves the bubble as it is
      for (const ChunkPassTimes& t : costs) {
        INFO(schedule.name << " p " << shape.stages << " m " << shape.microbatches << " v " << shape.virtual_stages
                           << " extra warm-up " << shape.extra_warmup << " F " << t.forward << " Bi " << t.backward_input
                           << " W " << t.weight_grad);
        const ScheduleTiming timing =
            evaluate_schedule(schedule, params_of(shape), StepDurations{t.forward, t.backward_input, t.weight_grad});
        const double busy = shape.microbatches * shape.virtual_stages * (t.forward + t.backward_input + t.weight_grad);
        CHECK(timing.makespan == Approx(busy + form.bubble(shape, t)));
      }
    }
  }
}

// A message between stages that takes a latency L, delivered while both stages compute: the event
// evaluation's makespan grows by L for every hop on the fill-and-drain path, 2(p-1) without chunks
// and 2(pv-1) with v chunks (a micro-batch's first forward crosses all pv-1 chunk boundaries, the
// wrap from stage p-1 to stage 0 included, and its last backward crosses them back). L is small
// beside every pass. This holds where the steady state leaves the stages slack: GPipe, and
// interleaving (its warm-up runs 2(p-s-1) forwards beyond 1F1B's). Plain 1F1B and ZB-H1 with
// exactly equal stages have none (stage p-1's F, B pairs wait on stage p-2 and back), so every
// micro-batch adds latency there; a real pipeline's last stage, with the output layer and loss, is
// the slowest and gives the others that slack (the replay's hops: tests/cli/cli_estimate_test).
TEST_CASE("closed-form fill-and-drain hops equal the makespan's growth per unit of p2p latency", "[schedule][strategy]") {
  const std::vector<ChunkPassTimes> costs = {{1.0, 1.0, 1.0}, {1.0, 2.0, 0.0}, {2.0, 3.0, 0.5}};
  const double latency = 1e-3;
  for (const ScheduleInfo& schedule : schedules()) {
    const ScheduleClosedForm& form = find_schedule_closed_form(schedule.name);
    for (const PipelineShape& shape : shapes_for(schedule)) {
      if (schedule.name != "gpipe" && shape.virtual_stages == 1) continue;  // no slack (above)
      for (const ChunkPassTimes& t : costs) {
        INFO(schedule.name << " p " << shape.stages << " m " << shape.microbatches << " v " << shape.virtual_stages
                           << " F " << t.forward << " Bi " << t.backward_input << " W " << t.weight_grad);
        const ScheduleParams params{shape.stages, shape.microbatches, shape.virtual_stages};
        const StepDurations d{t.forward, t.backward_input, t.weight_grad};
        const double free = evaluate_schedule(schedule, params, d).makespan;
        const double slow = evaluate_schedule(schedule, params, d, latency).makespan;
        CHECK(slow - free == Approx(form.fill_drain_hops(shape) * latency).margin(1e-9));
      }
    }
  }
}

// Worked by hand: p 4, v 3: 2(4 x 3 - 1) = 22 hops interleaved; 2(4 - 1) = 6 for 1F1B.
TEST_CASE("interleaving multiplies the fill-and-drain hops by the chunks", "[schedule][strategy]") {
  CHECK(find_schedule_closed_form("interleaved").fill_drain_hops({4, 8, 3}) == 22);
  CHECK(find_schedule_closed_form("interleaved").fill_drain_hops({4, 8, 1}) == 6);
  CHECK(find_schedule_closed_form("1f1b").fill_drain_hops({4, 8, 1}) == 6);
  CHECK(find_schedule_closed_form("interleaved").hops_sympy == "2*(p*v - 1)");
}
