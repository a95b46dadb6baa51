// Compute seconds of each block's passes for one micro-batch, from the operator catalogue and the
// roofline kernel time (the numbers the graph builder puts on its compute tasks); their sums over
// a stage's layers are sim/analytic/stage_compute. Part of the iteration formulas' input extraction.
#pragma once
#include <vector>

#include "sim/analytic/host_time.hpp"
#include "sim/config/run_spec.hpp"

namespace trainsim {

struct BlockPassTimes {
  double forward = 0, backward_input = 0, weight_grad = 0;  // seconds, one micro-batch
  // Weight-gradient kernels right after the backward's last input-gradient GEMM: the TP reduction
  // issued after that GEMM runs beside them (weight-gradient kernels do not wait for it, unless
  // launches block).
  double wgrad_after_last_gemm = 0;
  // The same after the last expert input-gradient GEMM (MoE): in a merged combined-1F1B step the
  // backward's EP exchange runs beside them (a whole backward issues it after them).
  double wgrad_after_last_expert = 0;
  // The forward's last GEMM is an expert GEMM (MoE): the TP reduction after it and the EP combine
  // after it start together and run at once on their own streams.
  bool forward_ends_in_expert = false;
  // With overlap.tp_comm the SP all-gather runs beside the first GEMM and, in the forward, the
  // reduction beside the last one; in the backward (input-gradient GEMMs) the re-gather of the last
  // GEMM's input runs beside it, overlap or not: their times, seconds.
  double forward_first_gemm = 0, forward_last_gemm = 0, backward_first_gemm = 0, backward_last_gemm = 0;
  // How many launches the host issues for the block per pass (its kernels and its TP/EP collectives).
  Launches forward_launches, backward_launches;
  // Those launches as the host issues them, in order (sim/analytic/host_time.hpp): the forward split at its
  // host synchronisations (an MoE dispatcher's before the dispatch, FrameworkMoe::dispatch_sync; a
  // clamped GLU's after its clamps, separate_glu_clamp). The TP collectives' launches come first, the
  // EP dispatch's right after its sync and the combine's last.
  IssueSegments forward_issue, backward_issue;
  // MoE: the forward's device seconds before its first expert kernel.
  double forward_before_dispatch = 0;
  // MoE: the kernels between the two all-to-alls of each pass (the forward's from its first expert
  // kernel through its last expert GEMM; the backward's likewise, by input-gradient kernels), and
  // the backward's before its first, seconds: the segments combined 1F1B interleaves.
  double forward_experts = 0, backward_before_experts = 0, backward_experts = 0;
};

// The forward kernels selective recompute re-runs in one block (sim/model/recompute_ops.hpp).
struct RedoTimes {
  double seconds = 0;
  IssueSegments issue;  // their launches as issued (a clamped GLU's re-run clamps synchronise after them)
};

struct BlockTimes {
  BlockPassTimes attention, mlp, moe, embedding, output;
  // Selective recompute per layer block, by the run's recompute_modules (0 when none applies; the
  // mlp module's TP collectives are the block's forward ones, not counted here).
  RedoTimes attention_redo, mlp_redo, moe_redo;
  // The attention block of sliding-window layers (ModelSpec::sliding_window) and its recompute.
  BlockPassTimes attention_window;
  RedoTimes attention_window_redo;
  [[nodiscard]] const BlockPassTimes& attention_of(bool window) const { return window ? attention_window : attention; }
  [[nodiscard]] const RedoTimes& attention_redo_of(bool window) const {
    return window ? attention_window_redo : attention_redo;
  }
  double attention_kernel = 0;  // the fused attention kernel alone (what CP's local block splits), seconds
  // A multi-token-prediction module's projection part (sim/model/mtp_ops.hpp); zero without MTP.
  BlockPassTimes mtp_in;
  // What an MTP layer's module adds around the layer in each pass (sim/graph/layer_tasks.cpp): the
  // embedding of the shifted tokens, the projection part and the shared output head; 0 for other layers.
  [[nodiscard]] double mtp_forward() const { return embedding.forward + mtp_in.forward + output.forward; }
  [[nodiscard]] double mtp_backward_input() const {
    return embedding.backward_input + mtp_in.backward_input + output.backward_input;
  }
  [[nodiscard]] double mtp_weight_grad() const { return embedding.weight_grad + mtp_in.weight_grad + output.weight_grad; }
};

[[nodiscard]] BlockTimes block_times(const RunSpec& run);

}  // namespace trainsim
