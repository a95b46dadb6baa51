// The once-per-iteration race between the DP stream and the pass it hides behind, in closed form.
// Gradient buckets become ready one after another during the last backward and are reduced one
// after another on the DP stream; bucket k is ready once a share r_k of that backward (time B) has
// run, and from then on the stream still has D_k = sum_{j>=k} d_j seconds of reductions to do. The
// stream therefore ends at max_k(r_k B + D_k), and what is left after the backward is
//   exposed = max(0, max_k (D_k - (1 - r_k) B)).
// Likewise prefetched ZeRO-1/2 parameter gathers run in forward order from the iteration's start;
// the layers of bucket k start after a share f_k of the first forward (time F) and need the gathers
// up to it, G_k = sum_{j<=k} g_j: the first forward is delayed by max_k (G_k - f_k F).
// Both are maxima of lines comm - share x (x the pass time); only the lines on their upper envelope
// for x >= 0 can be the maximum, so extraction keeps those (two for uniform layers).
#pragma once
#include <vector>

#include "sim/analytic/iteration_inputs.hpp"

namespace trainsim {

// Points of the reduction race: d_k seconds per bucket in ready order, h_k = 1 - r_k the share of
// the backward still to run when bucket k is ready (non-increasing, the last one 0; above 1 where
// an interleaved stage's earlier chunks finish passes before its last micro-batch's backward
// begins). Kept: the envelope.
[[nodiscard]] std::vector<OverlapPoint> reduction_points(const std::vector<double>& seconds,
                                                         const std::vector<double>& left_share);
// Points of the gather race: g_k seconds per bucket in forward order, f_k the share of the first
// forward done before its first layer starts (the first one 0). Kept: the envelope.
[[nodiscard]] std::vector<OverlapPoint> gather_points(const std::vector<double>& seconds,
                                                      const std::vector<double>& start_share);
// max_k (comm_scale comm_k - share_scale share_k pass), 0 for no points.
[[nodiscard]] double overlap_excess(const std::vector<OverlapPoint>& points, double comm_scale,
                                    double share_scale, double pass);
// The points whose lines comm - share x reach the upper envelope somewhere on x >= 0, by share.
[[nodiscard]] std::vector<OverlapPoint> upper_envelope(std::vector<OverlapPoint> points);

}  // namespace trainsim
