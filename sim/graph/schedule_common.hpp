// Helpers shared by the schedules in sim/graph/schedules/: parameter checks and the 1F1B step
// order that other schedules build on (interleaved with v = 1, ZB-H1).
#pragma once
#include <vector>

#include "sim/graph/schedule.hpp"

namespace trainsim {

// p, m and v at least 1, m v at most kMaxChunkPassesPerStage. Throws StrategyError naming the schedule.
void check_schedule_params(const char* schedule, const ScheduleParams& params);
// check_schedule_params, and stage in [0, p).
void check_schedule_params(const char* schedule, const ScheduleParams& params, int stage);
// Throws StrategyError unless v == 1 (schedules without model chunks).
void require_one_chunk(const char* schedule, const ScheduleParams& params);

// PipeDream-Flush / Megatron non-interleaved 1F1B on `stage` (chunk 0, unsplit B); defined in
// sim/graph/schedules/one_f_one_b.cpp.
[[nodiscard]] std::vector<ScheduleStep> one_f_one_b_steps(const ScheduleParams& params, int stage);

}  // namespace trainsim
