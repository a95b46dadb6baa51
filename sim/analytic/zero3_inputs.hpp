// ZeRO-3 communication of one stage for the formulas' inputs: each layer's parameter all-gather and
// gradient reduce-scatter per micro-batch (dense over dp x cp, the routed experts' over their expert
// data-parallel group), raced against the stage's passes as the graph issues them (chunk_tasks.cpp).
#pragma once
#include <vector>

#include "sim/analytic/comm_times.hpp"
#include "sim/analytic/dp_inputs.hpp"
#include "sim/analytic/iteration_inputs.hpp"
#include "sim/analytic/pass_times.hpp"
#include "sim/analytic/run_payloads.hpp"
#include "sim/strategy/stage_layout.hpp"

namespace trainsim {

// Fills out.zero3_exposed, zero3_after_wait and zero3_hidden (nothing unless ZeRO-3 with dp x cp > 1).
// Must run after the stage's TP/CP/EP inputs are filled: an even share of their exposed waits joins
// each layer's compute.
void add_zero3_comm(const RunSpec& run, const CommCosts& cc, int rank, const Payloads& pl, const BlockTimes& bt,
                    const std::vector<ChunkLayers>& chunks, const LayerParams& lp, StageInputs& out);

}  // namespace trainsim
