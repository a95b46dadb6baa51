#include "sim/strategy/ep_overlap.hpp"

namespace trainsim {

std::string ep_overlap_obstacle(const RunSpec& run) {
  const auto& s = run.strategy;
  if (!run.model.is_moe() || s.ep <= 1) return "has no EP all-to-all to overlap (ep 1 or a dense model)";
  if (s.pp > 1) return "is modelled without pipelining only (pp 1), as Megatron-Core's combined 1F1B for no pipelining";
  if (s.schedule != "1f1b") return "merges 1F1B's forward and backward passes (schedule 1f1b)";
  if (s.recompute == Recompute::kFull) return "cannot run with full recompute (Megatron-Core refuses the pair)";
  if (s.zero_stage >= 3) return "is not modelled with ZeRO-3's per-layer parameter gathers";
  return "";
}

bool merges_ep_passes(const RunSpec& run) { return run.strategy.overlap.ep_comm && ep_overlap_obstacle(run).empty(); }

int merged_steps(const RunSpec& run) { return merges_ep_passes(run) ? static_cast<int>(run.microbatches()) - 1 : 0; }

}  // namespace trainsim
