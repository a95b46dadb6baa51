// SymPy text of the iteration formulas (see iteration_symbolic.hpp; equations in iteration_model.hpp).
#include "sim/analytic/iteration_symbolic.hpp"

#include "sim/analytic/iteration_model.hpp"
#include "sim/core/number_text.hpp"

#include <cstdio>
#include <sstream>

namespace trainsim {
namespace {

std::string symbol_text(double value) { return format_number(value); }

// "x + cn*node + cw*network": exposed seconds plus those lost to link sharing (theta cn, cw).
std::string with_shared(double exposed, const std::array<double, 2>& shared) {
  return symbol_text(exposed) + " + cn*" + symbol_text(shared[0]) + " + cw*" + symbol_text(shared[1]);
}

void stage_lines(std::ostringstream& o, const IterationInputs& in, int s) {
  const StageInputs& st = in.stages[static_cast<size_t>(s)];
  const std::string k = "_" + std::to_string(s);
  o << "F" << k << ", Bi" << k << ", W" << k << ", R" << k << " = " << symbol_text(st.forward) << ", "
    << symbol_text(st.backward_input) << ", " << symbol_text(st.weight_grad) << ", " << symbol_text(st.recompute)
    << "  # compute per micro-batch, s\n";
  const SharedTerms& sh = shared_terms(in, st);
  o << "TP" << k << ", CP" << k << ", EP" << k << ", Z3" << k << " = " << with_shared(st.tp_exposed, sh.steady.tp)
    << ", " << with_shared(st.cp_exposed, sh.steady.cp) << ", " << with_shared(st.ep_exposed, sh.steady.ep)
    << ", " << with_shared(st.zero3_exposed, sh.steady.dp)
    << "  # exposed comm per micro-batch, s (+ time lost to other dimensions on node/network links)\n";
  o << "Z3w" << k << " = " << symbol_text(st.zero3_after_wait) << "  # ZeRO-3 waits inside passes that start after a wait\n";
  const SharedTime once = shared_once(in, st);
  o << "shTP" << k << ", shCP" << k << ", shEP" << k << " = " << with_shared(0, once.tp) << ", "
    << with_shared(0, once.cp) << ", " << with_shared(0, once.ep)
    << "  # once: beside DP traffic in the first forward and last backward\n";
  o << "rhoDP" << k << ", rhoAG" << k << " = " << with_shared(0, sh.reduce_slowdown) << ", " << with_shared(0, sh.gather_slowdown)
    << "  # DP reduction / prefetched gathers slowed by the others' traffic in their pass\n";
  o << "H" << k << " = " << symbol_text(st.tp_hidden + st.cp_hidden + st.ep_hidden) << " + s_dp*" << symbol_text(st.zero3_hidden)
    << (in.overlap_pp && in.shape.stages > 1 ? " + 2*v*" + symbol_text(st.pp_hop) : std::string())
    << "  # comm beside compute per micro-batch, s\n";
  o << "hop" << k << ", DP" << k << ", AG" << k << ", OPT" << k << ", OFF" << k << " = " << symbol_text(st.pp_hop)
    << ", " << symbol_text(st.dp_reduce) << ", " << symbol_text(st.param_gather) << ", " << symbol_text(st.optimizer)
    << ", " << symbol_text(st.offloaded_step) << "  # OFF: an offloaded step's host side, s\n";
  o << "K" << k << " = " << symbol_text(st.grad_checks) << "  # per-bucket gradient kernels (in the last backward with overlap), s\n";
  if (st.tied_sync > 0) o << "Y" << k << " = " << symbol_text(st.tied_sync) << "  # tied embedding's gradient exchange with the other end, s\n";
  o << "t" << k << " = c*(F" << k << " + Bi" << k << " + W" << k << " + R" << k << ") + s_tp*TP" << k << " + s_cp*CP" << k
    << " + s_ep*EP" << k << " + s_dp*Z3" << k << " + kappa*i*H" << k;
  if (!in.overlap_pp && in.shape.stages > 1) {  // sends the compute waits for
    const int sent = 2 * in.shape.virtual_stages - (s == 0 ? 1 : 0) - (s == in.shape.stages - 1 ? 1 : 0);
    o << " + b*" << sent << "*hop" << k;
  }
  o << "\n";
}

// The max over a race's points (overlap_points.hpp): "Max(0, s_dp*comm_1 - share_1*pass, ...)".
// `minus` is subtracted from every point ("" for nothing).
std::string race(const std::vector<OverlapPoint>& points, const std::string& share_scale, const std::string& pass,
                 const std::string& minus) {
  std::string out = "Max(0";
  for (const OverlapPoint& p : points)
    out += ", s_dp*" + symbol_text(p.comm) + " - " + share_scale + symbol_text(p.share) + "*" + pass + (minus.empty() ? "" : " - " + minus);
  return out + ")";
}

void end_lines(std::ostringstream& o, const IterationInputs& in) {
  const int p = in.shape.stages;
  std::string arrival = "0";  // when the stage's first input arrives
  for (int s = 0; s < p; ++s) {
    const std::string k = "_" + std::to_string(s), bwd = "c*(Bi" + k + " + W" + k + " + R" + k + ")";
    o << "fpass" << k << " = t" << k << "*F" << k << "/(F" << k << " + Bi" << k << " + W" << k << " + R" << k
      << ")  # forward pass with its waits\n";
    const StageInputs& st = in.stages[static_cast<size_t>(s)];
    if (s) o << "arrival" << k << " = " << arrival << "  # the stage's first input arrives\n";
    arrival = (s ? "arrival" + k + " + " : std::string()) + "fpass" + k + "/v + b*hop" + k;
    if (in.overlap_param_gather) {
      o << "start" << k << " = " << race(st.param_gather_points, "", "fpass" + k + "/(1 + rhoAG" + k + ")", s ? "arrival" + k : "")
        << "  # (gathers up to bucket j, share of the forward before it)\n";
      o << "slow_start" << k << " = kappa*i*Max(0, s_dp*AG" << k << " - start" << k << ")\n";
    } else {
      o << "start" << k << ", slow_start" << k << " = 0, 0\n";
    }
    o << "DPexp" << k << " = "
      << (in.overlap_dp ? race(st.dp_reduce_points, "o*", "(t" + k + " - fpass" + k + " + c*K" + k + ")/(1 + rhoDP" + k + ")", "") +
                              "  # (reductions from bucket j on, share of the last backward left)"
                        : "s_dp*DP" + k)
      << "\n";
    o << "ready" << k << " = start" << k << " + slow_start" << k << " + pipeline - " << s << "*" << bwd << "/v + kappa*i*(s_dp*DP" << k
      << " - DPexp" << k << ") + DPexp" << k << (in.overlap_param_gather ? "" : " + s_dp*AG" + k)
      << " + s_tp*shTP" << k << " + s_cp*shCP" << k << " + s_ep*shEP" << k << " + c*(";
    const bool on_drain = in.grad_checks_on_drain();
    for (int q = s; q < (on_drain ? p : s + 1); ++q) o << (q > s ? " + " : "") << "K_" << q;
    o << ")  # the optimizer could begin\n";
  }
  const bool tied = p > 1 && in.stages.back().tied_sync > 0;
  if (tied)
    o << "tied = Max(ready_0, ready_" << p - 1 << ") + b*Max(Y_0, Y_" << p - 1 << ")  # both ends' optimizers wait for it\n";
  for (int s = 0; s < p; ++s) {
    const std::string k = "_" + std::to_string(s);
    o << "end" << k << " = " << (tied && (s == 0 || s == p - 1) ? "tied" : "ready" + k) << " + c*OPT" << k << " + OFF" << k << "\n";
  }
  o << "T = Max(";
  for (int s = 0; s < p; ++s) o << (s ? ", " : "") << "end_" << s;
  o << ")  # iteration time, s\n";
}

}  // namespace

std::string symbolic_iteration(const IterationInputs& in, const IterationTheta& th) {
  std::ostringstream o;
  const int p = in.shape.stages;
  o << "# trainsim iteration formulas, SymPy syntax (from sympy import *; exec). Seconds throughout.\n"
    << "c, s_tp, s_cp, s_ep, s_dp, o, i, b = " << symbol_text(th.compute_scale) << ", " << symbol_text(th.tp_scale) << ", "
    << symbol_text(th.cp_scale) << ", " << symbol_text(th.ep_scale) << ", " << symbol_text(th.dp_scale) << ", " << symbol_text(th.dp_overlap)
    << ", " << symbol_text(th.interference) << ", " << symbol_text(th.bubble_scale) << "  # theta\n"
    << "cn, cw = " << symbol_text(th.contention_node) << ", " << symbol_text(th.contention_network)
    << "  # theta: x time lost to other dimensions' traffic on node / network links\n"
    << "p, m, v, kappa = " << p << ", " << in.shape.microbatches << ", " << in.shape.virtual_stages << ", "
    << symbol_text(in.comm_interference) << "\n";
  for (int s = 0; s < p; ++s) stage_lines(o, in, s);
  const int slowest = slowest_stage(in, th);
  o << "# schedule " << in.schedule->name << "; stage " << slowest << " is the slowest (largest t): the bubble takes\n"
    << "# the mean per-chunk pass times of the other stages\n";
  std::string sum_f, sum_w, sum_t, hops, ts;
  for (int s = 0; s < p; ++s) {
    const std::string k = "_" + std::to_string(s), plus = s ? " + " : "";
    hops += plus + "hop" + k;
    ts += (s ? ", " : "") + std::string("t") + k;
    if (s == slowest) continue;
    const std::string add = sum_t.empty() ? "" : " + ";
    // ZeRO-3: in the fill and drain only the waits inside a pass stay (Z3w); the first gathers hide.
    const std::string tk = "(t" + k + " - s_dp*(Z3" + k + " - Z3w" + k + "))";
    sum_f += add + tk + "*F" + k + "/(F" + k + " + Bi" + k + " + W" + k + " + R" + k + ")";
    sum_w += add + "W" + k;
    sum_t += add + tk;
  }
  const bool split_w = in.schedule->name == "zb-h1";
  if (p > 1) {
    o << "F = (" << sum_f << ")/((p - 1)*v)\n"
      << "W = " << (split_w ? "c*(" + sum_w + ")/((p - 1)*v)" : std::string("0")) << "\n"
      << "Bi = (" << sum_t << ")/((p - 1)*v) - F - W\n";
  }
  // Blocking sends are in each t_s (pp_wait); asynchronous ones add the fill and drain's hops.
  const std::string hop_term = in.overlap_pp ? " + " + in.schedule->hops_sympy + "*(" + hops + ")/p" : "";
  o << "pipeline = m*Max(" << ts << ")"
    << (p > 1 ? " + b*(" + in.schedule->bubble_sympy + hop_term + ")" : std::string()) << "\n";
  end_lines(o, in);
  return o.str();
}

}  // namespace trainsim
