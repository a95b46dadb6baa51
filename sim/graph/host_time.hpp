// Host time of one pass (the forward, or the backward, of one micro-batch through one model chunk
// of a stage), from the run's framework: exposed_host_time (sim/analytic/host_time.hpp) with one
// launch per task of the pass (kernel, collective, pipeline send or receive).
// With blocking launches the device waits for the host at every launch, so the pass takes its
// device time plus `host`; with asynchronous launches the host runs ahead of the device and the
// pass takes max(device, host) (the host and device meet at each pass boundary, where the
// framework synchronises on the pipeline transfer or the loss). Either way the difference appears
// as one compute-stream task "host.launches" at the end of the pass (role kHost), so the
// timeline shows where host time was not hidden.
#pragma once
#include <cstddef>

#include "sim/analytic/host_time.hpp"
#include "sim/graph/build_context.hpp"

namespace trainsim {

struct PassStart {
  size_t first_task = 0;  // the graph's size when the pass began
};

[[nodiscard]] PassStart begin_pass(const BuildContext& ctx);

// Ends the pass: appends the exposed host time (if any) as a compute task. `trailing_launches`
// counts tasks the pass issues after this call (its pipeline send).
void end_pass(BuildContext& ctx, PassStart start, int trailing_launches, int instructions, int microbatch);

}  // namespace trainsim
