// Compute seconds of one pipeline stage per micro-batch: the block times of sim/analytic/pass_times
// summed over the layers the stage's chunks hold, with recompute and the host time the framework
// leaves exposed, and the optimizer step. Part of the iteration formulas' input extraction.
#pragma once
#include <vector>

#include "sim/analytic/pass_times.hpp"
#include "sim/strategy/stage_layout.hpp"

namespace trainsim {

struct StageCompute {
  // Per micro-batch, seconds. forward and backward_input include the host time the framework
  // leaves exposed in those passes (sim/analytic/host_time.hpp; 0 without a framework).
  double forward = 0, backward_input = 0, weight_grad = 0, recompute = 0;
  double optimizer = 0;   // per iteration, seconds: the step's kernels on the device
  double offloaded_step = 0;  // per iteration, seconds: the device waiting for an offloaded step's host side
  // Per iteration, seconds: the output layer's weight gradients deferred to the pipeline flush
  // (strategy.defer_output_wgrad), taken out of weight_grad's per-micro-batch mean.
  double deferred_wgrad = 0;
  double params = 0;      // parameters this device holds (count)
};

// Sums over the chunks of one stage: layers (dense or MoE), embedding, output; recompute per the
// run's policy (sim/analytic/layer_recompute.hpp); the optimizer step over the device's (ZeRO-sharded) parameters.
[[nodiscard]] StageCompute stage_compute(const RunSpec& run, const BlockTimes& t, const std::vector<ChunkLayers>& chunks);

}  // namespace trainsim
