// Host time of one pass (the forward, or the backward, of one micro-batch through one model chunk
// of a stage), from the run's framework (sim/analytic/host_time.hpp): the host issues the pass's tasks
// in order, one launch per task (kernel, collective, pipeline send or receive) plus the launches some
// make beyond their first (Kernel::launches). With blocking launches the device waits for the host at
// every launch, so the pass takes its device time plus all its host time. With asynchronous ones a
// kernel waits for its launch only where the host has fallen behind (IssueSpan): from an empty queue
// where the pass begins at a synchronisation (pass_starts_empty) or after a host synchronisation
// inside it; elsewhere the host may bring a lead from the passes before, and the segment exposes only
// what its launches take beyond its device time. An EP exchange that the experts wait for holds the
// compute stream for its uncontended time (the formulas' CommCosts), while the host issues on.
// Either way the exposed time appears as one compute-stream task "host.launches" at the end of the
// pass or segment (role kHost), so the timeline shows where host time was not hidden.
#pragma once
#include "sim/analytic/host_time.hpp"
#include "sim/graph/build_context.hpp"

namespace trainsim {

// Starts a pass (a forward, or a backward: `backward`): a new host segment begins at the graph's
// current size, from an empty queue where the pass begins at a synchronisation (pass_starts_empty).
void begin_pass(BuildContext& ctx, bool backward);

// A host synchronisation inside the pass (the MoE dispatcher reading routing counts, FrameworkMoe::
// dispatch_sync): the host waits for the device to finish everything issued so far; the exposed host
// time of the segment since the pass began (or the last sync) is appended as a task here, and a new
// segment begins from an empty queue.
void host_sync(BuildContext& ctx, int microbatch);

// Ends the pass: appends the exposed host time of its last segment (if any) as a compute task.
// `trailing_launches` counts tasks the pass issues after this call (its pipeline send).
void end_pass(BuildContext& ctx, int trailing_launches, int instructions, int microbatch);

}  // namespace trainsim
