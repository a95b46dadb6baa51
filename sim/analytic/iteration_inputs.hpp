// The few numbers the iteration formulas need, extracted once from a run: per pipeline stage, the
// compute seconds of one micro-batch's passes (from the same kernel roofline the replay uses,
// sim/analytic/compute_time) and the uncontended seconds of its communication per dimension (from
// the same collective choice and each tier's alpha-beta, sim/analytic/collective_time), split into
// what the compute stream waits for (exposed) and what runs beside compute (overlappable).
// Evaluating the formulas (iteration_model.hpp) then costs a few hundred floating-point operations
// and builds no task graph.
#pragma once
#include <array>
#include <vector>

#include "sim/config/run_spec.hpp"
#include "sim/strategy/schedule_shape.hpp"

namespace trainsim {

class GroupPlacements;  // sim/analytic/group_placements.hpp

// One point of a once-per-iteration race between the DP stream and the pass it hides behind: once a
// bucket can go, `comm` seconds of DP collectives are still to run on the stream, and `share` of the
// pass (a fraction of its time) is left to hide them (the last backward's reduction), or has gone by
// (the first forward's prefetched parameter gathers). See overlap_points.hpp.
struct OverlapPoint {
  double comm = 0;   // seconds of DP collectives from this bucket on (reduction) or up to it (gathers)
  double share = 0;  // reduction: share of the last backward left once it is ready; gathers: share of
                     // the first forward done before the layers it holds start
};

// Seconds exposed communication takes beyond its uncontended time because another dimension's
// traffic shares its links (sim/analytic/shared_time.hpp); per dimension, [0] on links of the node's
// fabric (tier 0), [1] on links of the tiers above: theta's contention_node and contention_network
// scale them.
struct SharedTime {
  std::array<double, 2> tp{}, cp{}, ep{}, dp{};
};

// A stage's time lost to link sharing (sim/analytic/shared_time.hpp) under one setting of the pipeline
// switch, which decides whether the stage's sends run beside its collectives or make the compute wait.
struct SharedTerms {
  SharedTime steady;  // per micro-batch (dp: ZeRO-3 waits), beside asynchronous traffic
  SharedTime once;    // once per iteration (dp unused): the first forward's collectives beside
                      // prefetched gathers
  // Once per iteration (dp unused): the last backward's collectives beside the DP reduction, counted
  // only when the reduction overlaps that backward (overlap_dp), so the inputs do not depend on it.
  SharedTime once_reduce;
  // How much slower the DP reduction runs inside the last backward (and prefetched gathers inside
  // the first forward) beside the other dimensions' traffic, as a fraction of their time; [0] node
  // links, [1] network links. The race (overlap_points.hpp) then has pass / (1 + slowdown) to hide in;
  // reduce_slowdown is filled whether or not the reduction overlaps (it is read only when it does).
  std::array<double, 2> reduce_slowdown{}, gather_slowdown{};
};

// One stage, seconds. "Per micro-batch" sums all model chunks the stage holds.
struct StageInputs {
  double forward = 0;          // F: forward kernels per micro-batch
  double backward_input = 0;   // Bi: input-gradient kernels per micro-batch
  double weight_grad = 0;      // W: weight-gradient kernels (and unfused accumulation) per micro-batch
  double recompute = 0;        // R: re-run forward kernels per micro-batch
  double optimizer = 0;        // optimizer step's kernels, once per iteration
  double offloaded_step = 0;   // an offloaded step's host side (PCIe copies, CPU Adam), once per iteration:
                               // not device compute, so theta's compute_scale leaves it alone
  double deferred_wgrad = 0;   // output-layer weight gradients run in the flush, once per iteration
  double grad_checks = 0;      // per-bucket norm / scaling kernels, once per iteration (sim/graph/grad_checks.hpp)
  double tp_exposed = 0;       // TP collectives the next kernel waits for, per micro-batch
  double tp_hidden = 0;        // TP collectives beside compute (SP re-gather; all with overlap.tp_comm)
  double tp_hidden_forward = 0;  // the part of tp_hidden beside forward kernels
  double cp_exposed = 0;       // CP K/V exchange not hidden behind the local attention block, per micro-batch
  double cp_hidden = 0;        // CP exchange hidden behind the local block, per micro-batch
  double ep_exposed = 0;       // EP dispatch + combine, per micro-batch
  double ep_hidden = 0;        // EP all-to-alls that combined-1F1B steps hide, per micro-batch
  double zero3_exposed = 0;    // ZeRO-3 gathers/reduce-scatters not hidden behind a layer, per micro-batch
  double zero3_hidden = 0;     // ZeRO-3 traffic hidden behind layers, per micro-batch
  double zero3_after_wait = 0;  // ZeRO-3 waits of a micro-batch's passes in the fill and drain, where
                                // each pass starts after waiting for its input (zero3_streams.hpp)
  double pp_hop = 0;           // one activation or gradient to the next stage: alpha + S/beta
  // The tied embedding's gradient exchange with the other end of the pipeline (first and last stage
  // only, tied embeddings and pp > 1; sim/graph/tied_grads.hpp): alpha + S/beta of the table's
  // gradient shard, once per iteration, after both ends' data-parallel reduction.
  double tied_sync = 0;
  double dp_reduce = 0;        // gradient reduction of all buckets, once per iteration
  // With overlap.dp_grad_reduce: the reduction left after the last backward is
  // max_k(comm_k - share_k x that backward), over the buckets in the order they become ready.
  std::vector<OverlapPoint> dp_reduce_points;
  // Share of the last backward still to run when the first gradient bucket is ready: the only part
  // of it the reduction's traffic can share links with (0 when the buckets all close at its end).
  double dp_reduce_window = 1;
  double param_gather = 0;     // ZeRO-1/2 parameter all-gather of all buckets, once per iteration
  // With overlap.zero_param_gather: the first forward starts max_k(comm_k - share_k x that forward)
  // late, over the buckets in forward order (the first has share 0: the forward waits for it).
  std::vector<OverlapPoint> param_gather_points;
  // Link sharing with the compute waiting for the pipeline's sends ([0]) and with the sends beside
  // it ([1], overlap.pp_comm): both filled, so that the switch can be set on the inputs (overlap_pp).
  std::array<SharedTerms, 2> shared{};
  // Memory of one device of the stage (sim/analytic/device_memory), bytes: what does not depend on
  // the schedule (weights, gradients, optimizer state, buffers, framework), and the activations of
  // one (micro-batch, chunk) unit, which the schedule's closed-form peak multiplies.
  double memory_static = 0;
  double activation_unit = 0;
};

struct IterationInputs {
  PipelineShape shape;                         // p, m, v
  const ScheduleClosedForm* schedule = nullptr;
  double comm_interference = 0;                // accelerator's compute slowdown while comm moves
  bool overlap_dp = true, overlap_param_gather = true, overlap_pp = true;
  std::vector<StageInputs> stages;             // p entries
  // Whether the per-bucket gradient kernels (StageInputs::grad_checks) delay the pipeline's drain: with
  // the overlapped reduction they run in a stage's last backward, unless its last weight gradients run
  // off the drain (zb-h1).
  [[nodiscard]] bool grad_checks_on_drain() const { return overlap_dp && !schedule->weight_grads_off_drain; }
};

// Throws UserError for a schedule without a closed form (as the run's own checks would).
// `placements`: group placements kept across calls (the search's), or none.
[[nodiscard]] IterationInputs extract_iteration_inputs(const RunSpec& run, GroupPlacements* placements = nullptr);
// Only the shape, the schedule and each stage's compute (forward, backward_input, weight_grad,
// recompute, optimizer): every communication and memory input left 0. What the search's lower
// bound needs (sim/search/bound), at about a third of the cost of the full extraction.
[[nodiscard]] IterationInputs extract_compute_inputs(const RunSpec& run);

// Peak memory of one device of each stage from the inputs: memory_static + activation_unit x the
// schedule's closed-form peak in-flight units (schedule_shape.hpp), bytes. Equals stage_memory().
[[nodiscard]] double stage_peak_memory(const IterationInputs& in, int stage);
// The largest stage_peak_memory over the stages: what one device must hold, bytes.
[[nodiscard]] double fullest_stage_memory(const IterationInputs& in);
// A stage's link sharing under the inputs' pipeline switch (in.overlap_pp).
[[nodiscard]] const SharedTerms& shared_terms(const IterationInputs& in, const StageInputs& s);
// A stage's once-per-iteration shared time: `once`, plus `once_reduce` when in.overlap_dp.
[[nodiscard]] SharedTime shared_once(const IterationInputs& in, const StageInputs& s);

}  // namespace trainsim
