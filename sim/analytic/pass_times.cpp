// Per-block and per-stage compute seconds (see pass_times.hpp).
#include "sim/analytic/pass_times.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "sim/analytic/compute_time.hpp"
#include "sim/analytic/host_time.hpp"
#include "sim/analytic/layer_recompute.hpp"
#include "sim/model/attention_ops.hpp"
#include "sim/model/embedding_ops.hpp"
#include "sim/model/grad_accumulation.hpp"
#include "sim/model/layer_ops.hpp"
#include "sim/model/mlp_ops.hpp"
#include "sim/model/moe_ops.hpp"
#include "sim/model/optimizer_ops.hpp"
#include "sim/model/params.hpp"
#include "sim/model/recompute_ops.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {
namespace {

// Seconds of the weight-gradient kernels right after kernel `index` (none when index < 0).
double wgrad_run_after(const std::vector<Kernel>& bwd, int index, const RunSpec& run) {
  double t = 0;
  for (size_t i = static_cast<size_t>(index + 1); index >= 0 && i < bwd.size() && bwd[i].weight_grad; ++i)
    t += kernel_time(bwd[i], run.platform.accelerator);
  return t;
}

// Index of the last input-gradient expert GEMM ("moe_expert..." as the graph builder marks it), or -1.
int last_expert_gemm(const std::vector<Kernel>& bwd) {
  int last = -1;
  for (size_t i = 0; i < bwd.size(); ++i)
    if (!bwd[i].weight_grad && bwd[i].cls == KernelClass::kGemm && bwd[i].name.rfind("moe_expert", 0) == 0)
      last = static_cast<int>(i);
  return last;
}

bool is_expert(const Kernel& k) { return k.name.rfind("moe_expert", 0) == 0; }

// Seconds of kernels [0, first expert kernel) and [first expert kernel, last expert GEMM] of a pass,
// bounds taken among the kernels that are not weight gradients (as the graph builder's marks).
std::pair<double, double> expert_segments(const std::vector<Kernel>& ks, const AcceleratorSpec& acc) {
  int first = -1, last = -1;
  for (size_t i = 0; i < ks.size(); ++i) {
    if (ks[i].weight_grad || !is_expert(ks[i])) continue;
    if (first < 0) first = static_cast<int>(i);
    if (ks[i].cls == KernelClass::kGemm) last = static_cast<int>(i);
  }
  double before = 0, experts = 0;
  for (int i = 0; i < static_cast<int>(ks.size()) && first >= 0; ++i)
    (i < first ? before : experts) += i <= last ? kernel_time(ks[static_cast<size_t>(i)], acc) : 0;
  return {before, experts};
}

int launches(const std::vector<Kernel>& kernels) {
  int n = 0;
  for (const Kernel& k : kernels) n += k.launches;
  return n;
}

BlockPassTimes pass_times(const std::vector<Kernel>& fwd, std::vector<Kernel> bwd, const RunSpec& run) {
  if (!run.strategy.grad_accumulation_fusion)
    bwd = with_unfused_grad_accumulation(bwd, activation_element_bytes(run.precision), gradient_element_bytes(run));
  const AcceleratorSpec& acc = run.platform.accelerator;
  BlockPassTimes t;
  for (const Kernel& k : fwd) t.forward += kernel_time(k, acc);  // GEMM bounds below
  int last_gemm = -1;
  for (size_t i = 0; i < bwd.size(); ++i) {
    const Seconds time = kernel_time(bwd[i], acc);
    (bwd[i].weight_grad ? t.weight_grad : t.backward_input) += time;
    if (bwd[i].weight_grad || bwd[i].cls != KernelClass::kGemm) continue;
    if (last_gemm < 0) t.backward_first_gemm = time;
    t.backward_last_gemm = time;
    last_gemm = static_cast<int>(i);
  }
  bool first = true;
  for (const Kernel& k : fwd) {
    if (k.cls != KernelClass::kGemm) continue;
    const Seconds time = kernel_time(k, acc);
    if (first) t.forward_first_gemm = time, first = false;
    t.forward_last_gemm = time;
    t.forward_ends_in_expert = k.name.rfind("moe_expert", 0) == 0;
  }
  t.forward_launches = launches(fwd);
  t.backward_launches = launches(bwd);
  for (const Kernel& k : fwd) {
    if (k.name.rfind("moe_expert", 0) == 0) break;
    t.forward_before_dispatch += kernel_time(k, acc);
    t.forward_launches_before_dispatch += k.launches;
  }
  t.forward_experts = expert_segments(fwd, acc).second;
  std::tie(t.backward_before_experts, t.backward_experts) = expert_segments(bwd, acc);
  t.wgrad_after_last_gemm = wgrad_run_after(bwd, last_gemm, run);
  t.wgrad_after_last_expert = wgrad_run_after(bwd, last_expert_gemm(bwd), run);
  return t;
}

// The forward kernels of one block that selective recompute re-runs, by the run's modules.
RedoTimes redo_times(const std::vector<Kernel>& fwd, LayerBlock block, const RunSpec& run) {
  RedoTimes r;
  for (const Kernel& k : fwd) {
    if (!selectively_recomputed(k.name, block, run.strategy.recompute_modules)) continue;
    r.seconds += kernel_time(k, run.platform.accelerator);
    r.launches += std::max(1, k.launches);
  }
  return r;
}

// A layer block's collectives, each one launch per pass: the TP reduction (and with SP the
// all-gather) when tp > 1; the EP dispatch and combine of an MoE block when ep > 1.
void add_collective_launches(BlockPassTimes& b, const RunSpec& run, bool moe) {
  const auto& s = run.strategy;
  const int tp = s.tp > 1 ? (s.sequence_parallel ? 2 : 1) : 0, ep = moe && s.ep > 1 ? 2 : 0;
  b.forward_launches += tp + ep;
  b.backward_launches += tp + ep;
}

// One chunk's passes for one micro-batch: device seconds and launches of its forward and backward,
// the forward's since its last host synchronisation (FrameworkMoe::dispatch_sync) and the host time
// the segments that syncs closed left exposed.
struct ChunkPass {
  double forward = 0, backward = 0;
  int forward_launches = 0, backward_launches = 0;
  double forward_synced_exposed = 0;
  void add(const BlockPassTimes& b) {
    forward += b.forward;
    backward += b.backward_input + b.weight_grad;
    forward_launches += b.forward_launches;
    backward_launches += b.backward_launches;
  }
  // An MoE block whose dispatcher syncs: the part before the dispatch closes a segment.
  void add_synced(const BlockPassTimes& b, const HostCosts& h) {
    forward += b.forward_before_dispatch;
    forward_launches += b.forward_launches_before_dispatch;
    forward_synced_exposed += exposed_segment_time(h, forward, forward_launches);
    forward = b.forward - b.forward_before_dispatch;
    forward_launches = b.forward_launches - b.forward_launches_before_dispatch;
    backward += b.backward_input + b.weight_grad;
    backward_launches += b.backward_launches;
  }
  void add_recompute(double seconds, int launches) {
    backward += seconds;
    backward_launches += launches;
  }
};

void add(StageCompute& s, const BlockPassTimes& b) {
  s.forward += b.forward;
  s.backward_input += b.backward_input;
  s.weight_grad += b.weight_grad;
}

// The host time the framework leaves exposed in a chunk's two passes, added to the stage's
// forward and input-gradient times (a pipeline receive and send count one launch each).
void add_host_time(StageCompute& s, const RunSpec& run, const ChunkLayers& c, ChunkPass p) {
  const HostCosts& h = run.framework.host;
  if (!h.any()) return;
  p.forward_launches += (c.has_embedding ? 0 : 1) + (c.has_output ? 0 : 1);
  p.backward_launches += (c.has_output ? 0 : 1) + (c.has_embedding ? 0 : 1);
  s.forward += p.forward_synced_exposed +
               exposed_host_time(h, p.forward, p.forward_launches, forward_instructions(c.has_embedding, c.has_output));
  s.backward_input +=
      exposed_host_time(h, p.backward, p.backward_launches, backward_instructions(c.has_embedding, c.has_output));
}

// Whether an MoE block's dispatcher synchronises with the host (as the graph builder's block_tasks).
bool dispatch_syncs(const RunSpec& run) { return run.framework.moe.dispatch_sync && !run.moe.pad_to_capacity; }

}  // namespace

BlockTimes block_times(const RunSpec& run) {
  const ModelSpec& m = run.model;
  const Shard sh = shard_of(run);
  BlockTimes t;
  const std::vector<Kernel> attention = attention_forward(m, sh), mlp = mlp_forward(m, sh);
  t.attention = pass_times(attention, attention_backward(m, sh), run);
  t.mlp = pass_times(mlp, mlp_backward(m, sh), run);
  t.attention_redo = redo_times(attention, LayerBlock::kAttention, run);
  t.mlp_redo = redo_times(mlp, LayerBlock::kMlp, run);
  if (m.sliding_window > 0) {
    Shard windowed = sh;
    windowed.window = m.sliding_window;
    const std::vector<Kernel> window_fwd = attention_forward(m, windowed);
    t.attention_window = pass_times(window_fwd, attention_backward(m, windowed), run);
    t.attention_window_redo = redo_times(window_fwd, LayerBlock::kAttention, run);
    add_collective_launches(t.attention_window, run, false);
  }
  if (m.is_moe()) {
    const std::vector<Kernel> moe = moe_forward(m, sh);
    t.moe = pass_times(moe, moe_backward(m, sh), run);
    t.moe_redo = redo_times(moe, LayerBlock::kMoe, run);
  }
  add_collective_launches(t.attention, run, false);
  add_collective_launches(t.mlp, run, false);
  add_collective_launches(t.moe, run, true);
  t.embedding = pass_times(embedding_forward(m, sh), embedding_backward(m, sh), run);
  t.output = pass_times(output_forward(m, sh), output_backward(m, sh), run);
  for (const Kernel& k : attention)
    if (k.cls == KernelClass::kAttention) t.attention_kernel += kernel_time(k, run.platform.accelerator);
  return t;
}

StageCompute stage_compute(const RunSpec& run, const BlockTimes& t, const std::vector<ChunkLayers>& chunks) {
  const auto& s = run.strategy;
  StageCompute out;
  std::vector<int> layers;
  bool first = false, last = false;
  int position = 0;  // layer index inside the stage, chunk by chunk (recompute_layers counts these)
  for (const ChunkLayers& c : chunks) {
    first = first || c.has_embedding;
    last = last || c.has_output;
    ChunkPass pass;
    if (c.has_embedding) add(out, t.embedding), pass.add(t.embedding);
    for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l, ++position) {
      layers.push_back(l);
      const bool moe = is_moe_layer(run.model, l);
      const BlockPassTimes& ffn = moe ? t.moe : t.mlp;
      const BlockPassTimes& attention = t.attention_of(is_window_layer(run.model, l));
      add(out, attention), pass.add(attention);
      add(out, ffn);
      if (moe && dispatch_syncs(run)) pass.add_synced(ffn, run.framework.host);
      else pass.add(ffn);
      const LayerRecompute redo = layer_recompute(run, t, l, position);
      out.recompute += redo.seconds;
      pass.add_recompute(redo.seconds, redo.launches);
    }
    if (c.has_output) add(out, t.output), pass.add(t.output);
    add_host_time(out, run, c, pass);
  }
  const ParamCount device = device_params(run.model, layers, first, last, s.tp, s.ep);
  out.params = static_cast<double>(device.total());
  const double shard = s.zero_stage >= 1 ? 1.0 / s.dp : 1.0;
  for (const Kernel& k : iteration_step(device, shard, shard_of(run), run.fp8.param_gather))
    out.optimizer += kernel_time(k, run.platform.accelerator);
  return out;
}

}  // namespace trainsim
