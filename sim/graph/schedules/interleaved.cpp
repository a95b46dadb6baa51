// Interleaved 1F1B (Narayanan et al., SC'21, §2.2.2, as implemented in Megatron-LM): each stage
// holds v model chunks (chunk c of stage s is model chunk c*p + s). Forwards walk the chunks in
// groups of p micro-batches: virtual step k (0 <= k < m*v) runs micro-batch
// (k / (p*v)) * p + k % p on chunk (k % (p*v)) / p; backwards visit the chunks in reverse.
// Stage s runs 2(p-s-1) + (v-1)p warm-up forwards (capped at m*v), then alternates, then drains;
// Megatron-Core's combined 1F1B runs one more (ScheduleParams::extra_warmup: get_pp_rank_microbatches
// in megatron/core/pipeline_parallel/schedules.py, so that every 1F1B step's forward and backward
// are independent).
// The bubble shrinks to (p-1)(F+B)/v; Megatron requires m to be a multiple of p. (When m == p
// Megatron runs every forward as warm-up; we keep the general rule, which reaches the same bubble.)
#include <algorithm>
#include <string>

#include "sim/core/error.hpp"
#include "sim/graph/schedule_common.hpp"

namespace trainsim {
namespace {

// The k-th forward (backward when `backward`) of a stage in the interleaved order.
ScheduleStep virtual_step(const ScheduleParams& params, int k, bool backward) {
  const int p = params.stages;
  const int v = params.virtual_stages;
  const int in_round = k % (p * v);
  const int mb = (k / (p * v)) * p + in_round % p;
  const int chunk = in_round / p;
  if (backward) return {Phase::kBackward, mb, v - 1 - chunk};
  return {Phase::kForward, mb, chunk};
}

// With v > 1 chunks Megatron-LM needs m to be a multiple of p.
void check_interleaved(const ScheduleParams& params) {
  check_schedule_params("interleaved", params);
  const int p = params.stages;
  const int m = params.microbatches;
  if (params.virtual_stages > 1 && m % p != 0) {
    throw StrategyError("pipeline schedule 'interleaved': micro-batches per pipeline (m = " + std::to_string(m) +
                        ") must be a multiple of the pipeline stages (p = " + std::to_string(p) +
                        "), as Megatron-LM requires; valid: m = " + std::to_string((m / p + 1) * p) +
                        (m > p ? " or " + std::to_string(m / p * p) : std::string()));
  }
}

std::vector<ScheduleStep> interleaved_steps(const ScheduleParams& params, int stage) {
  const int p = params.stages;
  const int m = params.microbatches;
  const int total = m * params.virtual_stages;
  const int warmup = std::min(2 * (p - stage - 1) + (params.virtual_stages - 1) * p + params.extra_warmup, total);
  std::vector<ScheduleStep> steps;
  steps.reserve(2 * total);
  for (int k = 0; k < warmup; ++k) steps.push_back(virtual_step(params, k, false));
  for (int i = 0; i < total - warmup; ++i) {
    steps.push_back(virtual_step(params, warmup + i, false));
    steps.push_back(virtual_step(params, i, true));
  }
  for (int k = total - warmup; k < total; ++k) steps.push_back(virtual_step(params, k, true));
  return steps;
}

}  // namespace

ScheduleInfo interleaved_schedule() {
  ScheduleInfo info;
  info.name = "interleaved";
  info.description =
      "interleaved 1F1B with v model chunks per stage (Narayanan et al. SC'21): bubble (p-1)/(v m); "
      "needs m % p == 0; v = 1 is 1f1b";
  info.check = check_interleaved;
  info.steps = [](const ScheduleParams& params, int stage) {
    check_interleaved(params);
    check_schedule_params("interleaved", params, stage);
    if (params.virtual_stages == 1) return one_f_one_b_steps(params, stage);
    return interleaved_steps(params, stage);
  };
  return info;
}

}  // namespace trainsim
