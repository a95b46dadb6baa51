// The iteration formulas (see iteration_model.hpp for the equations and their sources).
#include "sim/analytic/iteration_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/analytic/overlap_points.hpp"

namespace trainsim {
namespace {

struct StageWork {
  double forward = 0, backward = 0, recompute = 0;  // compute per micro-batch, theta applied
  double tp = 0, cp = 0, ep = 0, zero3 = 0;          // exposed comm per micro-batch, theta applied
  double zero3_after_wait = 0;                       // ZeRO-3 waits in the fill and drain, theta applied
  double interference = 0;                           // compute slowdown per micro-batch
  double interference_forward = 0;                   // its part during the forward
  double pp_wait = 0;                                // sends the compute waits for (no p2p overlap)
  double per_microbatch() const { return forward + backward + recompute + tp + cp + ep + zero3 + interference + pp_wait; }
  // A micro-batch's forward pass as the DP stream sees it: t_s split in the proportion of the
  // compute (exposed waits included: the DP stream runs through them); the rest is its backward.
  double forward_pass() const {
    const double compute = forward + backward + recompute;
    return compute > 0 ? per_microbatch() * forward / compute : 0;
  }
};

// Seconds lost to link sharing (shared_time.hpp), theta applied: node links and network links.
double shared(const std::array<double, 2>& t, const IterationTheta& th) {
  return th.contention_node * t[0] + th.contention_network * t[1];
}

StageWork stage_work(const IterationInputs& in, const StageInputs& s, int stage, const IterationTheta& th) {
  StageWork w;
  const int p = in.shape.stages;
  const double sent = 2.0 * in.shape.virtual_stages - (stage == 0 ? 1 : 0) - (stage == p - 1 ? 1 : 0);
  if (!in.overlap_pp && p > 1) w.pp_wait = th.bubble_scale * sent * s.pp_hop;  // counted in the bubble term
  w.forward = th.compute_scale * s.forward;
  w.backward = th.compute_scale * (s.backward_input + s.weight_grad);
  w.recompute = th.compute_scale * s.recompute;
  const SharedTime& steady = shared_terms(in, s).steady;
  w.tp = th.tp_scale * (s.tp_exposed + shared(steady.tp, th));
  w.cp = th.cp_scale * (s.cp_exposed + shared(steady.cp, th));
  w.ep = th.ep_scale * (s.ep_exposed + shared(steady.ep, th));
  w.zero3 = th.dp_scale * (s.zero3_exposed + shared(steady.dp, th));
  w.zero3_after_wait = th.dp_scale * s.zero3_after_wait;
  // Communication beside compute: sends and ZeRO-3 traffic on both passes, the CP exchange beside
  // the forward's local attention, TP beside the backward's weight-gradient kernels.
  const double sends = in.overlap_pp && in.shape.stages > 1 ? in.shape.virtual_stages * s.pp_hop : 0;
  const double both = 0.5 * th.dp_scale * s.zero3_hidden + sends;
  const double k = in.comm_interference * th.interference;
  w.interference_forward = k * (s.cp_hidden + s.tp_hidden_forward + both);
  w.interference = w.interference_forward + k * (s.tp_hidden - s.tp_hidden_forward + s.ep_hidden + both);
  return w;
}

// Closed-form bubble plus the p2p hops of the fill and drain. The slowest stage sets the steady
// state (m max t); the fill and drain pass through the others, so the schedule's uniform-stage
// bubble is taken with the mean per-chunk pass times of the stages other than the slowest (for
// 1F1B: sum_s t_s - max_s t_s; equal stages give the published (p-1)(F+B)).
double pipeline_bubble(const IterationInputs& in, const std::vector<StageWork>& work, double th_compute) {
  const int p = in.shape.stages;
  if (p <= 1) return 0;
  size_t slowest = 0;
  for (size_t s = 1; s < work.size(); ++s)
    if (work[s].per_microbatch() > work[slowest].per_microbatch()) slowest = s;
  ChunkPassTimes mean;
  double hop = 0, w_total = 0;
  for (size_t s = 0; s < work.size(); ++s) {
    hop += in.stages[s].pp_hop;
    if (s == slowest) continue;
    const StageWork& w = work[s];
    // ZeRO-3 gathers are issued when the stage's previous compute ends: in the fill and drain the
    // stage waits for its input anyway, so the first ones of each pass hide there; the waits
    // inside the pass stay (zero3_streams.hpp).
    const double exposed = w.tp + w.cp + w.ep + w.zero3_after_wait + w.pp_wait;
    const double compute = w.forward + w.backward + w.recompute;
    const double forward_share = compute > 0 ? w.forward / compute : 0.5;
    mean.forward += w.forward + forward_share * (exposed + w.interference);
    mean.backward_input += w.recompute + w.backward + (1 - forward_share) * (exposed + w.interference);
    w_total += in.stages[s].weight_grad;
  }
  const double scale = 1.0 / ((p - 1) * in.shape.virtual_stages);
  mean.forward *= scale;
  mean.backward_input *= scale;  // W stays inside B except for ZB-H1, which splits it off
  if (in.schedule->name == "zb-h1") {
    mean.weight_grad = th_compute * w_total * scale;
    mean.backward_input -= mean.weight_grad;
  }
  // The fill and drain wait for the schedule's hops (2(p-1), or 2(pv-1) interleaved) when sends run
  // beside compute; blocking sends are in every stage's pass times (pp_wait), which the bubble above
  // already takes.
  const int hops = in.overlap_pp ? in.schedule->fill_drain_hops(in.shape) : 0;
  return in.schedule->bubble(in.shape, mean) + hops * hop / p;
}

// What happens once per iteration around the pipeline on one stage, seconds.
struct StageEdges {
  double start = 0;       // before the first forward can run: ZeRO-1/2 prefetched parameter gathers
  double dp = 0;          // after the last backward: DP reduction not hidden, parameter gather without prefetch
  double slow_start = 0;  // interference of the gathers hidden behind the first forward
  double slow_end = 0;    // interference of the reduction hidden behind the last backward
  double tp = 0, cp = 0, ep = 0;  // once: the first forward's and last backward's collectives beside DP traffic
  double sum() const { return start + dp + slow_start + slow_end + tp + cp + ep; }
};

// Prefetched gathers start the iteration on the DP stream: the first forward waits for each
// layer's bucket (overlap_points.hpp). The DP reduction hides behind the last backward as its
// buckets become ready (dp_overlap: the share of that backward it can use). Hidden traffic slows
// the compute it runs beside by comm_interference.
// `arrival`: when the stage's first input arrives (the upstream stages' first forward chunks and
// hops); gathers that finish before it delay nothing.
StageEdges stage_edges(const IterationInputs& in, const StageInputs& s, const StageWork& w, const IterationTheta& th,
                       double arrival) {
  StageEdges e;
  const double k = in.comm_interference * th.interference;
  const double forward_pass = w.forward_pass(), backward_pass = w.per_microbatch() - forward_pass;
  const double gather = th.dp_scale * s.param_gather, reduce = th.dp_scale * s.dp_reduce;
  if (in.overlap_param_gather) {
    const double hide = forward_pass / (1 + shared(shared_terms(in, s).gather_slowdown, th));
    e.start = std::max(0.0, overlap_excess(s.param_gather_points, th.dp_scale, 1, hide) - arrival);
    e.slow_start = k * std::max(0.0, gather - e.start);
  } else {
    e.dp = gather;
  }
  double exposed = reduce;
  if (in.overlap_dp) {
    // The last backward, lengthened by the per-bucket gradient kernels in it, hides the reductions.
    const double last_backward = backward_pass + th.compute_scale * s.grad_checks;
    const double hide = last_backward / (1 + shared(shared_terms(in, s).reduce_slowdown, th));
    exposed = overlap_excess(s.dp_reduce_points, th.dp_scale, th.dp_overlap, hide);
  }
  exposed = std::max(0.0, exposed);
  e.dp += exposed;
  e.slow_end = k * (reduce - exposed);
  const SharedTime once = shared_once(in, s);
  e.tp = th.tp_scale * shared(once.tp, th);
  e.cp = th.cp_scale * shared(once.cp, th);
  e.ep = th.ep_scale * shared(once.ep, th);
  return e;
}

// backward_once: backward work once per iteration (deferred output weight gradients, per-bucket kernels).
StageEstimate stage_terms(const StageWork& w, const StageEdges& e, double m, double optimizer, double backward_once,
                          double iteration) {
  StageEstimate out;
  auto& t = out.terms;
  const double slow_bwd = w.interference - w.interference_forward, bwd = w.backward + w.recompute;
  t[0] = m * (w.forward + w.interference_forward) + e.slow_start;
  t[1] = m * (w.backward + (bwd > 0 ? slow_bwd * w.backward / bwd : slow_bwd)) + e.slow_end + backward_once;
  t[2] = m * (w.recompute + (bwd > 0 ? slow_bwd * w.recompute / bwd : 0));
  t[3] = optimizer;
  t[4] = m * w.tp + e.tp, t[5] = m * w.cp + e.cp, t[6] = m * w.ep + e.ep;
  t[7] = m * w.zero3 + e.dp + e.start;
  double used = 0;
  for (int k = 0; k < 8; ++k) used += t[static_cast<size_t>(k)];
  t[8] = std::max(0.0, iteration - used);
  return out;
}

}  // namespace

int slowest_stage(const IterationInputs& in, const IterationTheta& th) {
  int slowest = 0;
  double t = -1;
  for (int s = 0; s < in.shape.stages; ++s) {
    const double ts = stage_work(in, in.stages[static_cast<size_t>(s)], s, th).per_microbatch();
    if (ts > t) t = ts, slowest = s;
  }
  return slowest;
}

const char* term_name(IterationTerm t) {
  static const char* const names[] = {"forward",    "backward",   "recompute",  "optimizer",  "exposed_tp",
                                      "exposed_cp", "exposed_ep", "exposed_dp", "bubble_idle"};
  return names[static_cast<int>(t)];
}

IterationEstimate estimate_iteration(const IterationInputs& in, const IterationTheta& th) {
  const int p = in.shape.stages;
  const double m = in.shape.microbatches;
  std::vector<StageWork> work;
  double slowest = 0;
  for (const StageInputs& s : in.stages) {
    work.push_back(stage_work(in, s, static_cast<int>(work.size()), th));
    slowest = std::max(slowest, work.back().per_microbatch());
  }
  const double pipeline = m * slowest + th.bubble_scale * pipeline_bubble(in, work, th.compute_scale);
  IterationEstimate out;
  std::vector<StageEdges> edges;
  double arrival = 0;  // when stage s receives its first micro-batch
  double drain = 0;    // the last backward chunks of the stages before s: how long s waits for stage 0
  // Per-bucket gradient kernels (strategy.grad_nan_check, grad_scale_kernel): with the overlapped
  // reduction they run in a stage's last backward and delay its last gradient to the stage before it,
  // so stage s ends later by its own and every later stage's; without it (after the backward), or
  // when the last weight gradients run off the drain (zb-h1), by its own.
  const bool on_drain = in.grad_checks_on_drain();
  std::vector<double> checks_from(static_cast<size_t>(p) + 1, 0);
  for (int s = p; s-- > 0;)
    checks_from[static_cast<size_t>(s)] = (on_drain ? checks_from[static_cast<size_t>(s) + 1] : 0) +
                                          th.compute_scale * in.stages[static_cast<size_t>(s)].grad_checks;
  std::vector<double> ready(static_cast<size_t>(p), 0);  // when each stage's optimizer could begin
  for (int s = 0; s < p; ++s) {
    const StageWork& w = work[static_cast<size_t>(s)];
    const StageInputs& st = in.stages[static_cast<size_t>(s)];
    edges.push_back(stage_edges(in, st, w, th, arrival));
    arrival += w.forward_pass() / in.shape.virtual_stages + th.bubble_scale * st.pp_hop;
    const StageEdges& e = edges.back();
    // Stage s runs its last backward s chunk passes before stage 0. Deferred weight gradients
    // (strategy.defer_output_wgrad) follow it, hidden while the stages before it still drain: their
    // last backward chunks.
    const double head_start = s * (w.backward + w.recompute) / in.shape.virtual_stages;
    double last = pipeline - head_start + checks_from[static_cast<size_t>(s)];
    if (st.deferred_wgrad > 0) last = std::max(last, pipeline - drain + th.compute_scale * st.deferred_wgrad);
    ready[static_cast<size_t>(s)] = e.sum() + last;
    drain += (w.backward + w.recompute) / in.shape.virtual_stages;
  }
  // The tied embedding's gradient exchange (tied_sync, first and last stage only) begins once both
  // ends are ready and holds both optimizers until its slower direction is over.
  const double tied = std::max(in.stages.front().tied_sync, in.stages.back().tied_sync);
  const double tied_end = std::max(ready.front(), ready.back()) + th.bubble_scale * tied;
  for (int s = 0; s < p; ++s) {
    const StageInputs& st = in.stages[static_cast<size_t>(s)];
    const double begin = st.tied_sync > 0 ? tied_end : ready[static_cast<size_t>(s)];
    out.iteration_time = std::max(out.iteration_time, begin + th.compute_scale * st.optimizer + st.offloaded_step);
  }
  for (int s = 0; s < p; ++s) {
    const StageInputs& st = in.stages[static_cast<size_t>(s)];
    out.stages.push_back(stage_terms(work[static_cast<size_t>(s)], edges[static_cast<size_t>(s)], m,
                                     th.compute_scale * st.optimizer + st.offloaded_step,
                                     th.compute_scale * (st.deferred_wgrad + st.grad_checks), out.iteration_time));
    for (int k = 0; k < kIterationTerms; ++k) out.mean[static_cast<size_t>(k)] += out.stages.back().terms[static_cast<size_t>(k)] / p;
  }
  // Inputs are bounded at load time (sim/config/plausible_ranges): a non-finite time is a defect.
  if (!std::isfinite(out.iteration_time))
    throw std::logic_error("the iteration formulas gave a non-finite time; this is a defect of trainsim, please report it");
  return out;
}

}  // namespace trainsim
