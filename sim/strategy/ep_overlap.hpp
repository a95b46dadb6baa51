// Where a run's EP overlap (strategy.overlap.ep_comm, Megatron-Core's combined 1F1B) applies, the
// one rule the graph builder (sim/graph/merged_passes.hpp), the iteration formulas and the run
// rules share: an MoE model with ep > 1, no full recompute and ZeRO below 3; without pipelining the
// 1F1B schedule (combined_1f1b_schedule_for_no_pipelining), with pipelining the interleaved one with
// virtual stages, whose warm-up then runs one more forward so that every 1F1B step's forward and
// backward are independent and merge. Sources: NVIDIA/Megatron-LM
// megatron/core/transformer/transformer_config.py at d2c5e8b4f4fa0062d8cd9cbe18a7fca7cf1f99a3
// (TransformerConfig.__post_init__: "virtual_pipeline_model_parallel_size must be specified when
// pipeline_model_parallel_size > 1"; no full recompute) and megatron/core/pipeline_parallel/schedules.py
// at 00611e6eeb0b09b5ee074750956855215ddbd67f (get_pp_rank_microbatches: num_warmup_microbatches + 1).
#pragma once
#include <string>

#include "sim/config/run_spec.hpp"

namespace trainsim {

// Why the run's strategy cannot merge its passes ("" when it can), for the run rules' message.
[[nodiscard]] std::string ep_overlap_obstacle(const RunSpec& run);
// overlap.ep_comm is on and nothing stands in its way.
[[nodiscard]] bool merges_ep_passes(const RunSpec& run);
// Merged steps stage `stage` runs per iteration: its 1F1B steps, each a forward and a backward.
// Without pipelining the first forward and the last backward run alone, the m - 1 pairs in between
// (backward i with forward i + 1) merge; with pipelining the steps after the warm-up (m v - warm-up).
[[nodiscard]] int merged_steps(const RunSpec& run, int stage);

}  // namespace trainsim
