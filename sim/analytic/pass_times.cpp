// Per-block compute seconds (see pass_times.hpp).
#include "sim/analytic/pass_times.hpp"

#include <tuple>
#include <utility>

#include "sim/analytic/comm_times.hpp"
#include "sim/analytic/compute_time.hpp"
#include "sim/model/attention_ops.hpp"
#include "sim/model/embedding_ops.hpp"
#include "sim/model/expert_eager_ops.hpp"
#include "sim/model/grad_accumulation.hpp"
#include "sim/model/mla_ops.hpp"
#include "sim/model/mlp_ops.hpp"
#include "sim/model/mtp_ops.hpp"
#include "sim/model/moe_ops.hpp"
#include "sim/model/recompute_ops.hpp"
#include "sim/model/shard.hpp"
#include "sim/strategy/ep_overlap.hpp"

namespace trainsim {
namespace {

// Seconds of the weight-gradient kernels right after kernel `index` (none when index < 0).
double wgrad_run_after(const std::vector<Kernel>& bwd, int index, const RunSpec& run) {
  double t = 0;
  for (size_t i = static_cast<size_t>(index + 1); index >= 0 && i < bwd.size() && bwd[i].weight_grad; ++i)
    t += kernel_time(bwd[i], run.platform.accelerator);
  return t;
}

bool is_expert(const Kernel& k) { return k.name.rfind("moe_expert", 0) == 0; }

// A GEMM that bounds the TP region (not one of MLA's duplicated down-projections, nor in an MoE block of
// whole experts over the tp ranks one outside its shared experts; sim/graph's BlockMarks).
bool tp_region_gemm(const Kernel& k, bool whole_experts) {
  return k.cls == KernelClass::kGemm && !tp_local_gemm(k.name) && moe_gemm_in_tp_region(k.name, whole_experts);
}

// A pass's first and last expert kernels ("moe_expert...", among the kernels that are not weight
// gradients, as the graph builder's marks; the last is the last expert GEMM unless an eager expert
// kernel follows it, the fc2 bias added per expert), -1 when absent.
struct ExpertBounds {
  int first = -1, last = -1;
};

ExpertBounds expert_bounds(const std::vector<Kernel>& ks) {
  ExpertBounds b;
  for (size_t i = 0; i < ks.size(); ++i) {
    if (ks[i].weight_grad || !is_expert(ks[i])) continue;
    if (b.first < 0) b.first = static_cast<int>(i);
    if (ks[i].cls == KernelClass::kGemm || b.last >= 0) b.last = static_cast<int>(i);
  }
  return b;
}

// Seconds of kernels [0, first) and [first, last] of a pass (both 0 without experts).
std::pair<double, double> expert_segments(const std::vector<Kernel>& ks, ExpertBounds b, const AcceleratorSpec& acc) {
  double before = 0, experts = 0;
  for (int i = 0; i < static_cast<int>(ks.size()) && b.first >= 0; ++i)
    (i < b.first ? before : experts) += i <= b.last ? kernel_time(ks[static_cast<size_t>(i)], acc) : 0;
  return {before, experts};
}

// One catalogue call per kernel, plus the launches it makes beyond its first.
Launches launches_of(const Kernel& k) { return {k.framework_calls, library_launches(k)}; }

// One EP exchange (dispatch or combine), which the kernels after it wait for, on the first stage's
// expert group (every stage's has that shape): 0 when no host cost is modelled, or where combined 1F1B
// runs it beside the other lane's kernels.
Seconds exchange_seconds(const RunSpec& run, const HostCosts& host) {
  if (!run.model.is_moe() || run.strategy.ep <= 1 || !host.any() || merges_ep_passes(run)) return 0;
  const CommCosts cc(run);
  return ep_exchange_seconds(cc, cc.mesh().rank_at_stage(0, 0), run);
}

// A pass's launches as the host issues them (BlockPassTimes::forward_issue, backward_issue), with the
// graph's EP exchanges (sim/graph/block_tasks.cpp): one before the first expert kernel, one after the
// last (in a backward, after the experts' weight gradients too), each holding the compute stream for
// `exchange` seconds. In a forward, a dispatcher that reads routing counts on the host synchronises
// before the first, and a clamped GLU's device scalar after the clamps.
IssueSegments issue_order(const std::vector<Kernel>& ks, bool forward, const RunSpec& run, const HostCosts& host,
                          Seconds exchange) {
  const bool ep = run.strategy.ep > 1;
  const ExpertBounds experts = expert_bounds(ks);
  int last = experts.last;
  for (int i = 0; !forward && i < static_cast<int>(ks.size()); ++i)
    if (is_expert(ks[static_cast<size_t>(i)])) last = i;
  IssueSegments out;
  for (int i = 0; i < static_cast<int>(ks.size()); ++i) {
    const Kernel& k = ks[static_cast<size_t>(i)];
    if (i == experts.first) {
      if (forward && run.moe_dispatch_syncs()) out.sync();
      if (ep) out.add(issue_span(host, Launches{1, 0}, exchange));
    }
    out.add(issue_span(host, launches_of(k), kernel_time(k, run.platform.accelerator)));
    if (forward && k.name == kGluClampForward) out.sync();
    if (i == last && ep) out.add(issue_span(host, Launches{1, 0}, exchange));
  }
  return out;
}

Launches launches(const std::vector<Kernel>& kernels) {
  Launches n;
  for (const Kernel& k : kernels) n += launches_of(k);
  return n;
}

// `exchange`: one EP exchange's time where the experts wait for it (exchange_seconds).
// `whole_experts`: an MoE block of whole experts over the tp ranks (experts_fold_tp).
BlockPassTimes pass_times(const std::vector<Kernel>& fwd, std::vector<Kernel> bwd, const RunSpec& run,
                          Seconds exchange, bool whole_experts = false) {
  if (!run.strategy.grad_accumulation_fusion)
    bwd = with_unfused_grad_accumulation(bwd, activation_element_bytes(run.precision), gradient_element_bytes(run));
  const AcceleratorSpec& acc = run.platform.accelerator;
  BlockPassTimes t;
  for (const Kernel& k : fwd) t.forward += kernel_time(k, acc);  // GEMM bounds below
  int last_gemm = -1;
  for (size_t i = 0; i < bwd.size(); ++i) {
    const Seconds time = kernel_time(bwd[i], acc);
    (bwd[i].weight_grad ? t.weight_grad : t.backward_input) += time;
    if (bwd[i].weight_grad || !tp_region_gemm(bwd[i], whole_experts)) continue;
    if (last_gemm < 0) t.backward_first_gemm = time;
    t.backward_last_gemm = time;
    last_gemm = static_cast<int>(i);
  }
  bool first = true;
  for (const Kernel& k : fwd) {
    if (!tp_region_gemm(k, whole_experts)) continue;
    const Seconds time = kernel_time(k, acc);
    if (first) t.forward_first_gemm = time, first = false;
    t.forward_last_gemm = time;
    t.forward_ends_in_expert = is_expert(k);
  }
  t.forward_launches = launches(fwd);
  t.backward_launches = launches(bwd);
  for (const Kernel& k : fwd) {
    if (is_expert(k)) break;
    t.forward_before_dispatch += kernel_time(k, acc);
  }
  const HostCosts host = host_costs_on(run.framework.host, run.platform);
  t.forward_issue = issue_order(fwd, true, run, host, exchange);
  t.backward_issue = issue_order(bwd, false, run, host, exchange);
  const ExpertBounds backward_experts = expert_bounds(bwd);
  t.forward_experts = expert_segments(fwd, expert_bounds(fwd), acc).second;
  std::tie(t.backward_before_experts, t.backward_experts) = expert_segments(bwd, backward_experts, acc);
  t.wgrad_after_last_gemm = wgrad_run_after(bwd, last_gemm, run);
  t.wgrad_after_last_expert = wgrad_run_after(bwd, backward_experts.last, run);
  return t;
}

// The forward kernels of one block that selective recompute re-runs, by the run's modules.
RedoTimes redo_times(const std::vector<Kernel>& fwd, LayerBlock block, const RunSpec& run) {
  const HostCosts host = host_costs_on(run.framework.host, run.platform);
  RedoTimes r;
  for (const Kernel& k : fwd) {
    if (!selectively_recomputed(k.name, block, run.strategy.recompute_modules, run.model)) continue;
    const Seconds time = kernel_time(k, run.platform.accelerator);
    r.seconds += time;
    r.issue.add(issue_span(host, launches_of(k), time));
    if (k.name == kGluClampForward) r.issue.sync();
  }
  return r;
}

// A layer block's collectives, each one launch per pass: the TP reduction (and with SP the
// all-gather) when tp > 1, except in an MoE block of whole experts (strategy.expert_tp 1) without
// shared experts; the EP dispatch and combine of an MoE block when ep > 1.
void add_collective_launches(BlockPassTimes& b, const RunSpec& run, bool moe) {
  const auto& s = run.strategy;
  const bool tp_block = moe ? moe_block_has_tp(run.model, s) : s.tp > 1;
  const int tp = tp_block ? (s.sequence_parallel ? 2 : 1) : 0, ep = moe && s.ep > 1 ? 2 : 0;
  b.forward_launches.calls += tp + ep;
  b.backward_launches.calls += tp + ep;
  // In issue order the TP launches are counted first (the EP ones are in the issue order already).
  const HostCosts host = host_costs_on(run.framework.host, run.platform);
  IssueSegments tp_launches;
  tp_launches.add(issue_span(host, Launches{tp, 0}, 0));
  b.forward_issue = tp_launches.then(b.forward_issue);
  b.backward_issue = tp_launches.then(b.backward_issue);
}

}  // namespace

BlockTimes block_times(const RunSpec& run) {
  const ModelSpec& m = run.model;
  const Shard sh = shard_of(run);
  BlockTimes t;
  const Seconds exchange = exchange_seconds(run, host_costs_on(run.framework.host, run.platform));
  const std::vector<Kernel> attention = attention_forward(m, sh), mlp = mlp_forward(m, sh);
  t.attention = pass_times(attention, attention_backward(m, sh), run, exchange);
  t.mlp = pass_times(mlp, mlp_backward(m, sh), run, exchange);
  t.attention_redo = redo_times(attention, LayerBlock::kAttention, run);
  t.mlp_redo = redo_times(mlp, LayerBlock::kMlp, run);
  if (m.sliding_window > 0) {
    Shard windowed = sh;
    windowed.window = m.sliding_window;
    const std::vector<Kernel> window_fwd = attention_forward(m, windowed);
    t.attention_window = pass_times(window_fwd, attention_backward(m, windowed), run, exchange);
    t.attention_window_redo = redo_times(window_fwd, LayerBlock::kAttention, run);
    add_collective_launches(t.attention_window, run, false);
  }
  if (m.is_moe()) {
    const std::vector<Kernel> moe = moe_forward(m, sh);
    t.moe = pass_times(moe, moe_backward(m, sh), run, exchange, experts_fold_tp(sh));
    t.moe_redo = redo_times(moe, LayerBlock::kMoe, run);
  }
  add_collective_launches(t.attention, run, false);
  add_collective_launches(t.mlp, run, false);
  add_collective_launches(t.moe, run, true);
  t.embedding = pass_times(embedding_forward(m, sh), embedding_backward(m, sh), run, exchange);
  t.output = pass_times(output_forward(m, sh), output_backward(m, sh), run, exchange);
  if (m.mtp_layers > 0) {
    t.mtp_in = pass_times(mtp_input_forward(m, sh), mtp_input_backward(m, sh), run, exchange);
    add_collective_launches(t.mtp_in, run, false);
  }
  for (const Kernel& k : attention)
    if (k.cls == KernelClass::kAttention) t.attention_kernel += kernel_time(k, run.platform.accelerator);
  return t;
}

}  // namespace trainsim
