// Expands a run into per-stage task graph templates: the schedule's steps for each stage, each
// step's layers as kernels and collectives, then gradient reduction and the optimizer step.
#pragma once
#include "sim/config/run_spec.hpp"
#include "sim/graph/run_graph.hpp"
#include "sim/model/params.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {

[[nodiscard]] StageGraph build_stage_graph(const RunSpec& run, int stage);
[[nodiscard]] RunGraph build_run_graph(const RunSpec& run);

// Parameters held by one device of `stage` (after TP/PP/EP splitting), counts by kind.
[[nodiscard]] ParamCount stage_params(const RunSpec& run, int stage);

}  // namespace trainsim
