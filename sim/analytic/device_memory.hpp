// Memory of one device of each pipeline stage: model states per ZeRO stage, activations held at
// the schedule's peak, communication buffers and framework overhead.
#pragma once
#include <vector>

#include "sim/config/run_spec.hpp"

namespace trainsim {

struct DeviceMemory {
  int stage = 0;
  int peak_in_flight = 0;    // (micro-batch, chunk) activation units held at the peak
  double params = 0;         // parameters held (count)
  Bytes weights = 0, gradients = 0, optimizer = 0, activations = 0, comm_buffers = 0, framework = 0;
  // Of `activations`: what one recomputed layer holds again during its backward (one micro-batch's,
  // whatever the in-flight count; 0 without recompute).
  Bytes recompute_transient = 0;
  Bytes total() const { return weights + gradients + optimizer + activations + comm_buffers + framework; }
};

// One entry per pipeline stage.
[[nodiscard]] std::vector<DeviceMemory> stage_memory(const RunSpec& run);
// The stage with the largest total.
[[nodiscard]] const DeviceMemory& peak_memory(const std::vector<DeviceMemory>& stages);

}  // namespace trainsim
