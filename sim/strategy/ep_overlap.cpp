#include "sim/strategy/ep_overlap.hpp"

#include "sim/strategy/schedule_shape.hpp"

namespace trainsim {

std::string ep_overlap_obstacle(const RunSpec& run) {
  const auto& s = run.strategy;
  if (!run.model.is_moe() || s.ep <= 1) return "has no EP all-to-all to overlap (ep 1 or a dense model)";
  if (s.pp > 1 && (s.schedule != "interleaved" || s.virtual_stages < 2))
    return "with pipelining needs virtual stages (schedule interleaved, virtual_stages >= 2), as Megatron-Core "
           "requires when pp > 1";
  if (s.pp == 1 && s.schedule != "1f1b") return "without pipelining merges 1F1B's forward and backward passes (schedule 1f1b)";
  if (s.recompute == Recompute::kFull) return "cannot run with full recompute (Megatron-Core refuses the pair)";
  if (s.zero_stage >= 3) return "is not modelled with ZeRO-3's per-layer parameter gathers";
  return "";
}

bool merges_ep_passes(const RunSpec& run) { return run.strategy.overlap.ep_comm && ep_overlap_obstacle(run).empty(); }

int merged_steps(const RunSpec& run, int stage) {
  if (!merges_ep_passes(run)) return 0;
  const PipelineShape shape = pipeline_shape(run);
  if (shape.stages == 1) return shape.microbatches - 1;
  const int passes = shape.microbatches * shape.virtual_stages;
  return passes - find_schedule_closed_form(run.strategy.schedule).warmup_forwards(shape, stage);
}

}  // namespace trainsim
