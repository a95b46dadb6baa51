#include "sim/graph/kernel_templates.hpp"

#include <algorithm>

#include "sim/analytic/compute_time.hpp"
#include "sim/analytic/optimizer_time.hpp"
#include "sim/model/attention_ops.hpp"
#include "sim/model/embedding_ops.hpp"
#include "sim/model/expert_eager_ops.hpp"
#include "sim/model/grad_accumulation.hpp"
#include "sim/model/layer_ops.hpp"
#include "sim/model/mla_ops.hpp"
#include "sim/model/mlp_ops.hpp"
#include "sim/model/mtp_ops.hpp"
#include "sim/model/moe_ops.hpp"
#include "sim/model/optimizer_ops.hpp"
#include "sim/model/params.hpp"
#include "sim/model/recompute_ops.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {

Task to_task(const Kernel& k, const RunSpec& run, StageGraph& graph, TaskRole role) {
  Task t;
  t.kind = TaskKind::kCompute;
  t.stream = Stream::kCompute;
  t.role = role;
  t.kernel_class = k.cls;
  t.label = graph.label(k.name);
  t.flops = k.flops;
  t.bytes = k.bytes;
  t.duration = kernel_time(k, run.platform.accelerator);
  return t;
}

namespace {


bool is_expert_kernel(const Task& task, const StageGraph& graph) {
  return graph.label_text(task.label).rfind("moe_expert", 0) == 0;
}

// `whole_experts`: an MoE block of whole experts over the tp ranks, whose TP region is its shared experts
// alone (moe_gemm_in_tp_region).
BlockMarks find_marks(const std::vector<Task>& kernels, const std::vector<uint8_t>* wgrad, const StageGraph& graph,
                      bool whole_experts) {
  BlockMarks m;
  for (int i = 0; i < static_cast<int>(kernels.size()); ++i) {
    const Task& k = kernels[static_cast<size_t>(i)];
    const bool expert = is_expert_kernel(k, graph);
    if (expert) m.last_expert_any = i;
    if (wgrad && (*wgrad)[static_cast<size_t>(i)]) continue;
    if (expert && m.first_expert < 0) m.first_expert = i;
    if (graph.label_text(k.label) == kGluClampForward) m.host_sync_after = i;
    // The last expert kernel: the last expert GEMM, or an eager expert kernel after it (the fc2 bias
    // added per expert), which the EP combine must wait for.
    if (expert && m.last_expert >= 0 && k.kernel_class != KernelClass::kGemm) m.last_expert = i;
    if (k.kernel_class != KernelClass::kGemm) continue;
    if (expert) m.last_expert = i;
    const std::string& name = graph.label_text(k.label);
    if (tp_local_gemm(name) || !moe_gemm_in_tp_region(name, whole_experts)) continue;
    if (m.first_gemm < 0) m.first_gemm = i;
    m.last_gemm = i;
  }
  return m;
}

// Launches beyond one per kernel, or nothing when every kernel is one launch.
std::vector<ExtraLaunches> extra_launches(const std::vector<Kernel>& kernels) {
  std::vector<ExtraLaunches> out(kernels.size());
  bool any = false;
  for (size_t i = 0; i < kernels.size(); ++i) {
    out[i] = {static_cast<uint16_t>(library_launches(kernels[i])),
              static_cast<uint16_t>(kernels[i].framework_calls - 1)};
    any = any || out[i].library > 0 || out[i].calls > 0;
  }
  return any ? out : std::vector<ExtraLaunches>{};
}

void set_marks(BlockTemplate& b, const StageGraph& graph, bool whole_experts = false) {
  b.forward_marks = find_marks(b.forward, nullptr, graph, whole_experts);
  b.backward_marks = find_marks(b.backward, &b.wgrad, graph, whole_experts);
}

// The backward kernels as the run accumulates weight gradients (an add kernel after each
// weight-gradient GEMM without gradient accumulation fusion).
std::vector<Kernel> accumulating(const std::vector<Kernel>& bwd, const RunSpec& run) {
  if (run.strategy.grad_accumulation_fusion) return bwd;
  return with_unfused_grad_accumulation(bwd, activation_element_bytes(run.precision), gradient_element_bytes(run));
}

BlockTemplate make_block(const std::vector<Kernel>& fwd, const std::vector<Kernel>& bwd, const RunSpec& run,
                         StageGraph& graph, bool whole_experts = false) {
  BlockTemplate b;
  for (const auto& k : fwd) b.forward.push_back(to_task(k, run, graph, TaskRole::kForward));
  const std::vector<Kernel> backward = accumulating(bwd, run);
  for (const auto& k : backward) {
    b.backward.push_back(to_task(k, run, graph, TaskRole::kBackward));
    b.wgrad.push_back(k.weight_grad ? 1 : 0);
  }
  b.forward_extra_launches = extra_launches(fwd);
  b.backward_extra_launches = extra_launches(backward);
  set_marks(b, graph, whole_experts);
  return b;
}

// The forward kernels of `block` that selective recompute re-runs (sim/model/recompute_ops.hpp).
BlockTemplate redo_block(const BlockTemplate& block, LayerBlock kind, const RunSpec& run, const StageGraph& graph) {
  BlockTemplate redo;
  if (run.strategy.recompute != Recompute::kSelective) return redo;
  for (size_t i = 0; i < block.forward.size(); ++i) {
    if (!selectively_recomputed(graph.label_text(block.forward[i].label), kind, run.strategy.recompute_modules, run.model)) continue;
    Task t = block.forward[i];
    t.role = TaskRole::kRecompute;
    redo.forward.push_back(t);
    if (!block.forward_extra_launches.empty()) redo.forward_extra_launches.push_back(block.forward_extra_launches[i]);
  }
  set_marks(redo, graph);
  redo.tp_input_scale = block.tp_input_scale;
  return redo;
}

// The attention block with its TP input width (MLA's latents, or h).
BlockTemplate attention_block(const ModelSpec& m, const Shard& sh, const RunSpec& run, StageGraph& graph) {
  BlockTemplate b = make_block(attention_forward(m, sh), attention_backward(m, sh), run, graph);
  b.tp_input_scale = static_cast<double>(tp_input_width(m)) / m.hidden;
  return b;
}

int first_layer_of_kind(const ModelSpec& m, bool moe) {
  for (int l = 0; l < m.layers; ++l)
    if (is_moe_layer(m, l) == moe) return l;
  return -1;
}

double params_of_layer(const RunSpec& run, int layer) {
  if (layer < 0) return 0;
  const auto& s = run.strategy;
  return static_cast<double>(device_params(run.model, {layer}, false, false, s).total());
}

}  // namespace

KernelTemplates make_kernel_templates(const RunSpec& run, StageGraph& graph, const ParamCount& stage_params) {
  const ModelSpec& m = run.model;
  const Shard sh = shard_of(run);
  KernelTemplates k;
  k.attention = attention_block(m, sh, run, graph);
  k.mlp = make_block(mlp_forward(m, sh), mlp_backward(m, sh), run, graph);
  k.attention_redo = redo_block(k.attention, LayerBlock::kAttention, run, graph);
  if (m.sliding_window > 0) {
    Shard windowed = sh;
    windowed.window = m.sliding_window;
    k.attention_window = attention_block(m, windowed, run, graph);
    k.attention_window_redo = redo_block(k.attention_window, LayerBlock::kAttention, run, graph);
  }
  k.mlp_redo = redo_block(k.mlp, LayerBlock::kMlp, run, graph);
  if (m.is_moe()) {
    k.moe = make_block(moe_forward(m, sh), moe_backward(m, sh), run, graph, experts_fold_tp(sh));
    k.moe_redo = redo_block(k.moe, LayerBlock::kMoe, run, graph);
    // Re-runs no dispatch (no EP region), but a re-run clamped GLU makes its device scalar again: the
    // host synchronises after the clamps as in the forward ([MC-GEGLU] in megatron-core.yaml).
    BlockMarks redo_marks;
    redo_marks.host_sync_after = k.moe_redo.forward_marks.host_sync_after;
    k.moe_redo.forward_marks = redo_marks;
  }
  k.embedding = make_block(embedding_forward(m, sh), embedding_backward(m, sh), run, graph);
  if (m.mtp_layers > 0) {
    k.mtp_in = make_block(mtp_input_forward(m, sh), mtp_input_backward(m, sh), run, graph);
    k.mtp_in.tp_input_scale = 2;  // eh_proj reads the embedding and the hidden state side by side
  }
  k.output = make_block(output_forward(m, sh), output_backward(m, sh), run, graph);
  const auto& s = run.strategy;
  const double shard = zero_shard_fraction(stage_params, s);
  // The optimizer step is one task: its kernels run back to back.
  Task opt;
  opt.role = TaskRole::kOptimizer;
  opt.kernel_class = KernelClass::kOptimizer;
  opt.label = graph.label("optimizer.step");
  const StepCost step = optimizer_step_cost(run, stage_params, shard);
  opt.flops = step.flops;
  opt.bytes = step.bytes;
  opt.duration = step.device + step.host;
  k.optimizer = opt;
  k.dense_layer_params = params_of_layer(run, first_layer_of_kind(m, false));
  k.moe_layer_params = params_of_layer(run, first_layer_of_kind(m, true));
  if (m.is_moe()) {
    const int moe = first_layer_of_kind(m, true);
    k.moe_layer_expert_params = static_cast<double>(device_params(m, {moe}, false, false, s).expert());
  }
  if (m.mtp_layers > 0) {
    k.mtp_layer_params = params_of_layer(run, m.layers);
    k.mtp_layer_expert_params = static_cast<double>(device_params(m, {m.layers}, false, false, s).expert());
  }
  const ParamCount first = device_params(m, {}, true, false, s);
  k.mtp_embedding_params = static_cast<double>(mtp_embedding_copy_params(m, s.tp, s.pp));
  const ParamCount last = device_params(m, {}, false, true, s);
  k.embedding_params = static_cast<double>(first.embedding);
  k.output_params = static_cast<double>(last.total());
  return k;
}

}  // namespace trainsim
