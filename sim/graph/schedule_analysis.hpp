// Pure analysis of pipeline schedules: the activations a stage holds at its peak, a checker for
// a stage's step list, and a small event evaluation of all stages together (zero-size messages,
// fixed step costs) that gives the makespan and each stage's idle time (its bubble). The bubble
// tests use it as the reference for the closed forms in sim/strategy/schedule_shape, which the
// analytic model uses instead of expanding steps.
#pragma once
#include <string>
#include <vector>

#include "sim/core/units.hpp"
#include "sim/graph/schedule.hpp"

namespace trainsim {

// Max over prefixes of (#F - #B-or-Bi): the (micro-batch, chunk) activation units held at the peak.
[[nodiscard]] int peak_in_flight(const std::vector<ScheduleStep>& steps);

// "" when the steps of one stage run every (micro-batch, chunk) of `params` exactly once — one F and
// either one B or one Bi plus one W — with F before its B/Bi and Bi before its W; else the first defect.
[[nodiscard]] std::string schedule_defect(const std::vector<ScheduleStep>& steps, const ScheduleParams& params);

struct StepDurations {
  Seconds forward = 0;         // one F step (one micro-batch through one chunk), seconds
  Seconds backward_input = 0;  // one Bi step, seconds; an unsplit B step takes backward_input + weight_grad
  Seconds weight_grad = 0;     // one W step, seconds
};

struct ScheduleTiming {
  Seconds makespan = 0;                     // from 0 to the end of the last step on any stage, seconds
  std::vector<Seconds> busy;                // per stage: total step time, seconds
  std::vector<Seconds> idle;                // per stage: makespan - busy (the stage's bubble), seconds
  std::vector<std::vector<Seconds>> start;  // per stage, per step (in order): start time, seconds
};

// Runs each stage's steps in order, a step starting when its stage is free and its inputs exist:
// F(mb, c) on stage s needs F(mb, c) on s-1 (on stage p-1, chunk c-1 when s = 0 and c > 0);
// B/Bi(mb, c) needs its own F and B/Bi(mb, c) on s+1 (on stage 0, chunk c+1 when s = p-1 and
// c < v-1); W needs its own Bi. A dependency between different stages adds p2p_latency.
// per_stage[s] are the steps of stage s. Throws StrategyError if the stages deadlock.
[[nodiscard]] ScheduleTiming evaluate_steps(const std::vector<std::vector<ScheduleStep>>& per_stage,
                                            const ScheduleParams& params, const StepDurations& durations,
                                            Seconds p2p_latency = 0);
// The same for a registered schedule (its steps for every stage of `params`).
[[nodiscard]] ScheduleTiming evaluate_schedule(const ScheduleInfo& schedule, const ScheduleParams& params,
                                               const StepDurations& durations, Seconds p2p_latency = 0);

}  // namespace trainsim
