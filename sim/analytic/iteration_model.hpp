// Time of one training iteration in closed form, as a sum of named terms per pipeline stage:
// compute per pass, exposed communication per dimension, the pipeline bubble (with idle time
// waiting for the slowest stage), optimizer. Inputs are the few numbers extracted once from a run
// (iteration_inputs.hpp); theta the platform's fitted coefficients (iteration_theta.hpp). Pure
// arithmetic: one evaluation builds no task graph and costs a few hundred floating-point operations.
//
// Per stage s, with m micro-batches, v chunks, per-micro-batch compute F_s, Bi_s, W_s, R_s and
// exposed communication e_s (TP, CP, EP, ZeRO-3):
//   t_s      = c (F_s + Bi_s + W_s + R_s) + e_s + kappa i h_s        (h_s: comm beside compute)
//   pipeline = m max_s t_s + b [bubble_schedule(p, m, v; mean chunk pass times) + H hop]
//              (H: the schedule's fill-and-drain hops, 2(p-1) or 2(pv-1) interleaved, with asynchronous
//              sends; 0 with blocking ones, whose waits are in t_s)
//   end_s    = pipeline - s (Bi + W + R)_chunk + c sum_{q >= s} K_q + DP_exposed_s + optimizer_s
//              (K_q: stage q's per-bucket gradient kernels, in its last backward with the overlapped
//              reduction, where they delay the drain; without it only K_s, after the backward)
//   T        = max_s (end_s + start_s), start_s = max_k(G_k - f_k F_s): prefetched ZeRO-1/2 gathers
//              the first forward waits for (G_k gathers up to bucket k, f_k the forward's share before it);
//              with tied embeddings and p > 1 the first and last stage's optimizers both begin at
//              max(ready_0, ready_{p-1}) + b max(Y_0, Y_{p-1}), ready_s = end_s - optimizer_s, Y_s the
//              tied embedding's gradient sent from stage s to the other end (alpha + S/beta;
//              sim/graph/tied_grads.hpp)
// bubble_schedule is the schedule's closed form (sim/strategy/schedule_shape: (p-1)(F+B) for GPipe
// and 1F1B, per chunk for interleaved, (p-1)(F+Bi) - (min(m,p)-1) W for ZB-H1; Narayanan et al.
// SC'21 §2.2, Qi et al. ICLR 2024 Table 2); DP_exposed_s = max_k(D_k - o h_k (Bi+W+R)_s) over the
// gradient buckets (D_k the reductions from bucket k on, h_k the share of the last backward left when
// it is ready; sim/analytic/overlap_points.hpp) with overlap, the whole reduction without. c, b, o, i
// and the per-dimension scales are theta.
#pragma once
#include <array>
#include <vector>

#include "sim/analytic/iteration_inputs.hpp"
#include "sim/analytic/iteration_theta.hpp"

namespace trainsim {

// The terms, in the order (and with the names) of the replay's time categories, bubble and idle
// together (sim/replay/timeline.hpp).
enum class IterationTerm { kForward, kBackward, kRecompute, kOptimizer, kTp, kCp, kEp, kDp, kBubble };
constexpr int kIterationTerms = 9;
[[nodiscard]] const char* term_name(IterationTerm t);  // "forward", ..., "exposed_tp", ..., "bubble_idle"

struct StageEstimate {
  std::array<double, kIterationTerms> terms{};  // seconds; they add up to the iteration time
};

struct IterationEstimate {
  double iteration_time = 0;                    // seconds
  std::vector<StageEstimate> stages;            // per pipeline stage
  std::array<double, kIterationTerms> mean{};   // mean over stages (= over devices), seconds
};

[[nodiscard]] IterationEstimate estimate_iteration(const IterationInputs& in, const IterationTheta& theta);
// The stage with the largest time per micro-batch t_s (the first of equals): it sets the steady
// state, and the bubble is taken over the others.
[[nodiscard]] int slowest_stage(const IterationInputs& in, const IterationTheta& theta);

}  // namespace trainsim
