#include "sim/graph/schedule_common.hpp"

#include <string>

#include "sim/core/error.hpp"

namespace trainsim {

void check_schedule_params(const char* schedule, const ScheduleParams& params) {
  const std::string where = std::string("pipeline schedule '") + schedule + "': ";
  if (params.stages < 1 || params.microbatches < 1 || params.virtual_stages < 1) {
    throw StrategyError(where + "stages, micro-batches and virtual stages must be at least 1 (got p " +
                        std::to_string(params.stages) + ", m " + std::to_string(params.microbatches) +
                        ", v " + std::to_string(params.virtual_stages) + ")");
  }
  const long long passes = static_cast<long long>(params.microbatches) * params.virtual_stages;
  if (passes > kMaxChunkPassesPerStage) {
    throw StrategyError(where + "m * v = " + std::to_string(params.microbatches) + " * " +
                        std::to_string(params.virtual_stages) + " = " + std::to_string(passes) +
                        " micro-batch passes per stage exceeds the limit of " +
                        std::to_string(kMaxChunkPassesPerStage) +
                        " (every pass is expanded into tasks for the replay)");
  }
}

void check_schedule_params(const char* schedule, const ScheduleParams& params, int stage) {
  check_schedule_params(schedule, params);
  const std::string where = std::string("pipeline schedule '") + schedule + "': ";
  if (stage < 0 || stage >= params.stages) {
    throw StrategyError(where + "stage " + std::to_string(stage) + " is outside 0.." +
                        std::to_string(params.stages - 1));
  }
}

void require_one_chunk(const char* schedule, const ScheduleParams& params) {
  if (params.virtual_stages != 1) {
    throw StrategyError(std::string("pipeline schedule '") + schedule + "' runs one model chunk per stage (got " +
                        "virtual_stages " + std::to_string(params.virtual_stages) +
                        "); use virtual_stages: 1, or schedule: interleaved");
  }
}

}  // namespace trainsim
