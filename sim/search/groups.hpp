// The search space as groups: a compute group fixes every knob that sets a stage's compute and
// activations (degrees, micro-batch, schedule and virtual stages, SP, recompute policy); inside it,
// the knobs that only move communication, the optimizer step and model-state memory (ZeRO stage, offload, TP overlap,
// ZeRO prefetch, mesh order: each needs its own input extraction) and two flags the formulas read
// directly (DP-reduction and PP overlap). The search bounds a group once and expands it only when
// the bound leaves room (sim/search/search.cpp).
#pragma once
#include <string>
#include <vector>

#include "sim/config/run_spec.hpp"
#include "sim/search/space.hpp"

namespace trainsim {

struct ComputeGroup {
  int tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, micro_batch = 1, virtual_stages = 1;
  int first_stage_layers = 0, last_stage_layers = 0;  // uneven pipeline split; 0, 0 = even
  std::string schedule = "1f1b";
  bool sequence_parallel = false;
  Recompute recompute = Recompute::kNone;
};

struct InnerChoice {
  int zero_stage = 0;
  Offload offload = Offload::kNone;
  bool tp_comm = false;       // overlap.tp_comm
  bool param_gather = true;   // overlap.zero_param_gather
  std::string mesh_order;
};

struct FlagChoice {
  bool dp_grad_reduce = true;  // overlap.dp_grad_reduce
  bool pp_comm = true;         // overlap.pp_comm
};

struct GroupCounts {
  long long invalid = 0;  // combinations a rule rejects (e.g. interleaved needs m % p == 0)
};

// Every valid compute group of `base` (its model, platform, devices, batch and sequence) the space
// admits, in a fixed order (tp, pp, cp, ep, micro-batch, schedule, v, split, SP, recompute ascending).
// Uneven pipeline splits (first/last stage layers) are enumerated where the even split cannot
// interleave (e.g. 126 layers over pp 16 x v 2): of those with first and last each 0 or a multiple of
// v up to ceil(L/p), the most balanced (fewest layers on the fullest stage); any other split only
// when the space names first_stage_layers or last_stage_layers.
[[nodiscard]] std::vector<ComputeGroup> compute_groups(const RunSpec& base, const SearchSpace& space, GroupCounts* counts);
// The inner choices of a group. Knobs that do nothing in it (ZeRO with dp 1, TP overlap with tp 1,
// ZeRO prefetch without ZeRO, mesh orders that place every group alike) take one value: the run
// default when the space admits it, else the first value it admits. Mesh orders that would place a
// group of a dimension `base` keeps in one domain (strategy.keep_in_domain) across two are left out,
// as `check` refuses such a run.
[[nodiscard]] std::vector<InnerChoice> inner_choices(const ComputeGroup& g, const SearchSpace& space, const RunSpec& base);
[[nodiscard]] std::vector<FlagChoice> flag_choices(const ComputeGroup& g, const SearchSpace& space);
// recompute_layers values of a group, fewest recomputed first (0 = every layer comes last); a
// single 0 unless the recompute policy is full.
[[nodiscard]] std::vector<int> recompute_layer_options(const ComputeGroup& g, const RunSpec& base, const SearchSpace& space);

// `run` with the group's and choices' knobs set (other fields of `run` untouched).
void apply_choice(const ComputeGroup& g, const InnerChoice& c, const FlagChoice& f, int recompute_layers, RunSpec& run);

}  // namespace trainsim
