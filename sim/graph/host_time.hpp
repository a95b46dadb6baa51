// Host time of one pass (the forward, or the backward, of one micro-batch through one model chunk
// of a stage), from the run's framework: exposed_host_time (sim/analytic/host_time.hpp) with one
// launch per task of the pass (kernel, collective, pipeline send or receive) and the library
// launches of its kernels beyond their first (Kernel::launches).
// With blocking launches the device waits for the host at every launch, so the pass takes its
// device time plus `host`; with asynchronous launches the host runs ahead of the device and the
// pass takes max(device, host) (the host and device meet at each pass boundary, where the
// framework synchronises on the pipeline transfer or the loss). Either way the difference appears
// as one compute-stream task "host.launches" at the end of the pass (role kHost), so the
// timeline shows where host time was not hidden.
#pragma once
#include "sim/analytic/host_time.hpp"
#include "sim/graph/build_context.hpp"

namespace trainsim {

// Starts a pass: a new host segment begins at the graph's current size.
void begin_pass(BuildContext& ctx);

// A host synchronisation inside the pass (the MoE dispatcher reading routing counts, FrameworkMoe::
// dispatch_sync): the host waits for the device to finish everything issued so far, so the segment
// since the pass began (or the last sync) takes max(device, host) on its own; its exposed host time
// is appended as a task here and a new segment begins.
void host_sync(BuildContext& ctx, int microbatch);

// Ends the pass: appends the exposed host time of its last segment (if any) as a compute task.
// `trailing_launches` counts tasks the pass issues after this call (its pipeline send).
void end_pass(BuildContext& ctx, int trailing_launches, int instructions, int microbatch);

}  // namespace trainsim
