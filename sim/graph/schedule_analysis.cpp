#include "sim/graph/schedule_analysis.hpp"

#include <algorithm>
#include <array>

#include "sim/core/error.hpp"

namespace trainsim {
namespace {

bool is_gradient(Phase p) { return p == Phase::kBackward || p == Phase::kBackwardInput; }

std::string describe(const ScheduleStep& s) {
  static const char* const kNames[] = {"F", "B", "Bi", "W"};
  return std::string(kNames[static_cast<int>(s.phase)]) + "(mb " + std::to_string(s.microbatch) + ", chunk " +
         std::to_string(s.chunk) + ")";
}

// Finish times per (stage, chunk, micro-batch) of the forwards and of the gradient (B or Bi) steps;
// negative while not yet run.
struct Finished {
  int v, m;
  std::vector<Seconds> forward, gradient;
  Finished(int p, int v_, int m_) : v(v_), m(m_), forward(p * v_ * m_, -1), gradient(p * v_ * m_, -1) {}
  int at(int s, int c, int mb) const { return (s * v + c) * m + mb; }
};

Seconds duration(Phase phase, const StepDurations& d) {
  switch (phase) {
    case Phase::kForward: return d.forward;
    case Phase::kBackward: return d.backward_input + d.weight_grad;
    case Phase::kBackwardInput: return d.backward_input;
    case Phase::kWeightGrad: return d.weight_grad;
  }
  return 0;
}

// When the inputs of `step` on stage s are ready; negative if one has not run yet.
Seconds ready_time(const ScheduleStep& step, int s, int p, const Finished& f, Seconds latency) {
  const int c = step.chunk, mb = step.microbatch;
  auto from = [&](const std::vector<Seconds>& times, int stage, int chunk) {
    const Seconds t = times[f.at(stage, chunk, mb)];
    return t < 0 || stage == s ? t : t + latency;
  };
  if (step.phase == Phase::kForward) {
    if (s > 0) return from(f.forward, s - 1, c);
    return c > 0 ? from(f.forward, p - 1, c - 1) : 0;
  }
  const Seconds own = f.forward[f.at(s, c, mb)];
  if (step.phase == Phase::kWeightGrad) return f.gradient[f.at(s, c, mb)];
  Seconds next = 0;
  if (s < p - 1) next = from(f.gradient, s + 1, c);
  else if (c < f.v - 1) next = from(f.gradient, 0, c + 1);
  return own < 0 || next < 0 ? -1 : std::max(own, next);
}

}  // namespace

int peak_in_flight(const std::vector<ScheduleStep>& steps) {
  int held = 0, peak = 0;
  for (const ScheduleStep& s : steps) {
    if (s.phase == Phase::kForward) peak = std::max(peak, ++held);
    else if (is_gradient(s.phase)) --held;
  }
  return peak;
}

std::string schedule_defect(const std::vector<ScheduleStep>& steps, const ScheduleParams& params) {
  const int m = params.microbatches, v = params.virtual_stages;
  // Per (chunk, micro-batch): how many times each phase ran so far.
  std::vector<std::array<int, 4>> seen(static_cast<size_t>(std::max(m * v, 0)), std::array<int, 4>{});
  for (const ScheduleStep& s : steps) {
    if (s.microbatch < 0 || s.microbatch >= m || s.chunk < 0 || s.chunk >= v) return describe(s) + " is out of range";
    auto& n = seen[s.chunk * m + s.microbatch];
    const int phase = static_cast<int>(s.phase);
    if (n[phase]++ > 0) return describe(s) + " runs twice";
    if (is_gradient(s.phase) && n[static_cast<int>(Phase::kForward)] == 0) return describe(s) + " runs before its F";
    if (s.phase == Phase::kWeightGrad && n[static_cast<int>(Phase::kBackwardInput)] == 0) {
      return describe(s) + " runs before its Bi";
    }
  }
  for (int c = 0; c < v; ++c) {
    for (int mb = 0; mb < m; ++mb) {
      const auto& n = seen[c * m + mb];
      const bool unsplit = n[1] == 1 && n[2] == 0 && n[3] == 0;
      const bool split = n[1] == 0 && n[2] == 1 && n[3] == 1;
      if (n[0] != 1 || !(unsplit || split)) {
        return "(mb " + std::to_string(mb) + ", chunk " + std::to_string(c) +
               ") lacks its F, or a B, or a Bi and W pair";
      }
    }
  }
  return "";
}

ScheduleTiming evaluate_steps(const std::vector<std::vector<ScheduleStep>>& per_stage, const ScheduleParams& params,
                              const StepDurations& durations, Seconds p2p_latency) {
  const int p = static_cast<int>(per_stage.size());
  for (int s = 0; s < p; ++s) {
    const std::string defect = schedule_defect(per_stage[s], params);
    if (!defect.empty()) throw StrategyError("pipeline stage " + std::to_string(s) + ": " + defect);
  }
  Finished done(p, params.virtual_stages, params.microbatches);
  ScheduleTiming t;
  t.busy.assign(p, 0);
  t.start.resize(p);
  std::vector<Seconds> free_at(p, 0);
  std::vector<size_t> next(p, 0);
  for (bool progress = true; progress;) {
    progress = false;
    for (int s = 0; s < p; ++s) {
      for (; next[s] < per_stage[s].size(); ++next[s]) {
        const ScheduleStep& step = per_stage[s][next[s]];
        const Seconds ready = ready_time(step, s, p, done, p2p_latency);
        if (ready < 0) break;  // waits for another stage
        const Seconds begin = std::max(free_at[s], ready);
        const Seconds cost = duration(step.phase, durations);
        free_at[s] = begin + cost;
        t.busy[s] += cost;
        t.start[s].push_back(begin);
        if (step.phase == Phase::kForward) done.forward[done.at(s, step.chunk, step.microbatch)] = free_at[s];
        if (is_gradient(step.phase)) done.gradient[done.at(s, step.chunk, step.microbatch)] = free_at[s];
        progress = true;
      }
    }
  }
  for (int s = 0; s < p; ++s) {
    if (next[s] < per_stage[s].size()) {
      throw StrategyError("pipeline schedule deadlocks: stage " + std::to_string(s) + " waits forever at " +
                          describe(per_stage[s][next[s]]));
    }
  }
  t.makespan = p == 0 ? 0 : *std::max_element(free_at.begin(), free_at.end());
  for (int s = 0; s < p; ++s) t.idle.push_back(t.makespan - t.busy[s]);
  return t;
}

ScheduleTiming evaluate_schedule(const ScheduleInfo& schedule, const ScheduleParams& params,
                                 const StepDurations& durations, Seconds p2p_latency) {
  std::vector<std::vector<ScheduleStep>> per_stage;
  for (int s = 0; s < params.stages; ++s) per_stage.push_back(schedule.steps(params, s));
  return evaluate_steps(per_stage, params, durations, p2p_latency);
}

}  // namespace trainsim
