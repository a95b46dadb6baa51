// How much longer a stage's exposed communication takes because another dimension's traffic is on
// the same links at the same time (link_sharing.hpp gives, per pair of traffic kinds, the factor
// kappa by which one is slowed while the other is active). What runs at the same time follows from
// the streams:
//  - every micro-batch, collectives the compute stream waits for (TP, CP, EP, ZeRO-3 gathers) run
//    beside the traffic of the streams that run on their own: ZeRO-3 prefetches and
//    reduce-scatters on the DP stream, and pipeline sends. Kind c' (DP or PP) is active a share
//      u(c') = hidden(c') / (t_s - exposed(c'))
//    of the time the compute stream does not wait for it itself (t_s: the stage's time per
//    micro-batch), so exposed kind c gains exposed(c) sum_{c' != c} u(c') kappa(c, c'). The
//    compute stream's own hidden traffic (SP re-gathers, overlapped TP, the CP exchange behind the
//    local attention, the EP all-to-alls of merged combined-1F1B steps) runs at fixed places in a
//    layer, mostly not where another dimension's exposed collective is, and is left out;
//  - once per iteration, the last backward's exposed collectives run beside the DP reduction
//    (active a share min(1, reduce / backward)), the first forward's beside prefetched ZeRO-1/2
//    gathers; and that DP traffic is itself slowed by the others' traffic in the pass, for the
//    part of it that falls inside the pass.
// First order: u and the pass times are taken from the uncontended inputs.
#pragma once
#include "sim/analytic/iteration_inputs.hpp"
#include "sim/analytic/link_sharing.hpp"

namespace trainsim {

// Fills st.shared, for both settings of the pipeline switch, from the stage's other inputs (which
// must be filled).
void add_shared_time(const RunSpec& run, const LinkSharing& links, StageInputs& st);

}  // namespace trainsim
