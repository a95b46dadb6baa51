// Data-parallel communication of one stage for the formulas' inputs: DP gradient buckets and
// ZeRO-1/2 parameter gathers once per iteration, cut and ordered as the graph builder does it
// (sim/graph/grad_sync.cpp); ZeRO-3's per-layer collectives are in zero3_inputs.hpp.
#pragma once
#include <vector>

#include "sim/analytic/comm_times.hpp"
#include "sim/analytic/iteration_inputs.hpp"
#include "sim/analytic/pass_times.hpp"
#include "sim/analytic/run_payloads.hpp"
#include "sim/strategy/stage_layout.hpp"

namespace trainsim {

// Parameters of one layer, of the embedding and of the output layer on one device (counts).
struct LayerParams {
  std::vector<double> layer;   // by global layer index
  std::vector<double> expert;  // of which the routed experts' (reduced over expert_grad_dim when ep > 1)
  double embedding = 0, output = 0;
};
[[nodiscard]] LayerParams layer_params_of(const RunSpec& run);

void add_dp_comm(const RunSpec& run, const CommCosts& cc, int rank, const Payloads& pl, double params,
                 const BlockTimes& bt, const std::vector<ChunkLayers>& chunks, const LayerParams& lp,
                 StageInputs& out);

}  // namespace trainsim
