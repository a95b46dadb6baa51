// SymPy text of the iteration formulas (see iteration_symbolic.hpp; equations in iteration_model.hpp).
#include "sim/analytic/iteration_symbolic.hpp"

#include <cstdio>
#include <sstream>

namespace trainsim {
namespace {

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void stage_lines(std::ostringstream& o, const IterationInputs& in, int s) {
  const StageInputs& st = in.stages[static_cast<size_t>(s)];
  const std::string k = "_" + std::to_string(s);
  o << "F" << k << ", Bi" << k << ", W" << k << ", R" << k << " = " << num(st.forward) << ", "
    << num(st.backward_input) << ", " << num(st.weight_grad) << ", " << num(st.recompute)
    << "  # compute per micro-batch, s\n";
  o << "TP" << k << ", CP" << k << ", EP" << k << ", Z3" << k << " = " << num(st.tp_exposed) << ", "
    << num(st.cp_exposed) << ", " << num(st.ep_exposed) << ", " << num(st.zero3_exposed)
    << "  # exposed comm per micro-batch, s\n";
  o << "H" << k << " = " << num(st.tp_hidden + st.cp_hidden) << " + s_dp*" << num(st.zero3_hidden)
    << (in.overlap_pp && in.shape.stages > 1 ? " + 2*v*" + num(st.pp_hop) : std::string())
    << "  # comm beside compute per micro-batch, s\n";
  o << "hop" << k << ", DP" << k << ", DPlast" << k << ", AG" << k << ", AG1" << k << ", OPT" << k << " = "
    << num(st.pp_hop) << ", " << num(st.dp_reduce) << ", " << num(st.dp_last_bucket) << ", "
    << num(st.param_gather) << ", " << num(st.param_first_bucket) << ", " << num(st.optimizer) << "\n";
  o << "t" << k << " = c*(F" << k << " + Bi" << k << " + W" << k << " + R" << k << ") + s_tp*TP" << k << " + s_cp*CP" << k
    << " + s_ep*EP" << k << " + s_dp*Z3" << k << " + kappa*i*H" << k;
  if (!in.overlap_pp && in.shape.stages > 1) {  // sends the compute waits for
    const int sent = 2 * in.shape.virtual_stages - (s == 0 ? 1 : 0) - (s == in.shape.stages - 1 ? 1 : 0);
    o << " + b*" << sent << "*hop" << k;
  }
  o << "\n";
}

void end_lines(std::ostringstream& o, const IterationInputs& in) {
  const int p = in.shape.stages;
  for (int s = 0; s < p; ++s) {
    const std::string k = "_" + std::to_string(s);
    std::string dp = in.overlap_dp ? "Max(s_dp*DPlast" + k + ", s_dp*DP" + k + " - o*c*(Bi" + k + " + W" + k + " + R" + k + "))"
                                   : "s_dp*DP" + k;
    if (!in.overlap_param_gather) dp += " + s_dp*AG" + k;
    o << "end" << k << " = pipeline - " << s << "*c*(Bi" << k << " + W" << k << " + R" << k << ")/v + " << dp
      << " + c*OPT" << k << "\n";
  }
  o << "T = Max(";
  for (int s = 0; s < p; ++s) o << (s ? ", " : "") << "end_" << s;
  o << ")" << (in.overlap_param_gather ? " + s_dp*AG1_0" : "") << "  # iteration time, s\n";
}

}  // namespace

std::string symbolic_iteration(const IterationInputs& in, const IterationTheta& th) {
  std::ostringstream o;
  const int p = in.shape.stages;
  o << "# trainsim iteration formulas, SymPy syntax (from sympy import *; exec). Seconds throughout.\n"
    << "c, s_tp, s_cp, s_ep, s_dp, o, i, b = " << num(th.compute_scale) << ", " << num(th.tp_scale) << ", "
    << num(th.cp_scale) << ", " << num(th.ep_scale) << ", " << num(th.dp_scale) << ", " << num(th.dp_overlap)
    << ", " << num(th.interference) << ", " << num(th.bubble_scale) << "  # theta\n"
    << "p, m, v, kappa = " << p << ", " << in.shape.microbatches << ", " << in.shape.virtual_stages << ", "
    << num(in.comm_interference) << "\n";
  for (int s = 0; s < p; ++s) stage_lines(o, in, s);
  o << "# schedule " << in.schedule->name << ": mean per-chunk pass times over stages\n";
  std::string sum_f, sum_w, sum_t, hops, ts;
  for (int s = 0; s < p; ++s) {
    const std::string k = "_" + std::to_string(s), plus = s ? " + " : "";
    sum_f += plus + "t" + k + "*F" + k + "/(F" + k + " + Bi" + k + " + W" + k + " + R" + k + ")";
    hops += plus + "hop" + k;
    sum_w += plus + "W" + k;
    sum_t += plus + "t" + k;
    ts += (s ? ", " : "") + std::string("t") + k;
  }
  const bool split_w = in.schedule->name == "zb-h1";
  o << "F = (" << sum_f << ")/(p*v)\n"
    << "W = " << (split_w ? "c*(" + sum_w + ")/(p*v)" : std::string("0")) << "\n"
    << "Bi = (" << sum_t << ")/(p*v) - F - W\n";
  o << "pipeline = m*Max(" << ts << ")"
    << (p > 1 ? " + b*(" + in.schedule->bubble_sympy + " + 2*(p - 1)*(" + hops + ")/p)" : std::string()) << "\n";
  end_lines(o, in);
  return o.str();
}

}  // namespace trainsim
