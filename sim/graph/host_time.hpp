// Host time of one pass (the forward, or the backward, of one micro-batch through one model chunk
// of a stage), from the run's framework (sim/config/framework_spec.hpp). The host issues one
// launch per task of the pass (kernel, collective, pipeline send or receive; one per pass with
// CUDA graphs), plus its per-pass and per-pipeline-instruction time:
//   host = pass + instructions · pipeline_instruction + launches · launch.
// With blocking launches the device waits for the host at every launch, so the pass takes its
// device time plus `host`; with asynchronous launches the host runs ahead of the device and the
// pass takes max(device, host) (the host and device meet at each pass boundary, where the
// framework synchronises on the pipeline transfer or the loss). Either way the difference appears
// as one compute-stream task "host.launches" at the end of the pass (role kHost), so the
// timeline shows where host time was not hidden.
#pragma once
#include <cstddef>

#include "sim/graph/build_context.hpp"

namespace trainsim {

struct PassStart {
  size_t first_task = 0;  // the graph's size when the pass began
};

[[nodiscard]] PassStart begin_pass(const BuildContext& ctx);

// Host time a pass adds beyond its device time, seconds (0 without host costs).
//   device: seconds of compute issued in the pass; launches: tasks issued; instructions: pipeline
//   instructions the framework's engine runs for the pass.
[[nodiscard]] Seconds exposed_host_time(const HostCosts& host, Seconds device, int launches, int instructions);

// Ends the pass: appends the exposed host time (if any) as a compute task. `trailing_launches`
// counts tasks the pass issues after this call (its pipeline send).
void end_pass(BuildContext& ctx, PassStart start, int trailing_launches, int instructions, int microbatch);

}  // namespace trainsim
