// Per-block and per-stage compute seconds (see pass_times.hpp).
#include "sim/analytic/pass_times.hpp"

#include "sim/analytic/compute_time.hpp"
#include "sim/model/attention_ops.hpp"
#include "sim/model/embedding_ops.hpp"
#include "sim/model/grad_accumulation.hpp"
#include "sim/model/layer_ops.hpp"
#include "sim/model/mlp_ops.hpp"
#include "sim/model/moe_ops.hpp"
#include "sim/model/optimizer_ops.hpp"
#include "sim/model/params.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {
namespace {

// Seconds of the weight-gradient kernels right after kernel `index` (none when index < 0).
double wgrad_run_after(const std::vector<Kernel>& bwd, int index, const RunSpec& run) {
  double t = 0;
  for (size_t i = static_cast<size_t>(index + 1); index >= 0 && i < bwd.size() && bwd[i].weight_grad; ++i)
    t += kernel_time(bwd[i], run.platform.accelerator, run.precision);
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

BlockPassTimes pass_times(const std::vector<Kernel>& fwd, std::vector<Kernel> bwd, const RunSpec& run) {
  if (!run.strategy.grad_accumulation_fusion)
    bwd = with_unfused_grad_accumulation(bwd, gemm_element_bytes(run.precision), gradient_element_bytes(run));
  const AcceleratorSpec& acc = run.platform.accelerator;
  BlockPassTimes t;
  for (const Kernel& k : fwd) t.forward += kernel_time(k, acc, run.precision);  // GEMM bounds below
  int last_gemm = -1;
  for (size_t i = 0; i < bwd.size(); ++i) {
    const Seconds time = kernel_time(bwd[i], acc, run.precision);
    (bwd[i].weight_grad ? t.weight_grad : t.backward_input) += time;
    if (bwd[i].weight_grad || bwd[i].cls != KernelClass::kGemm) continue;
    if (last_gemm < 0) t.backward_first_gemm = time;
    t.backward_last_gemm = time;
    last_gemm = static_cast<int>(i);
  }
  bool first = true;
  for (const Kernel& k : fwd) {
    if (k.cls != KernelClass::kGemm) continue;
    const Seconds time = kernel_time(k, acc, run.precision);
    if (first) t.forward_first_gemm = time, first = false;
    t.forward_last_gemm = time;
    t.forward_ends_in_expert = k.name.rfind("moe_expert", 0) == 0;
  }
  t.wgrad_after_last_gemm = wgrad_run_after(bwd, last_gemm, run);
  t.wgrad_after_last_expert = wgrad_run_after(bwd, last_expert_gemm(bwd), run);
  return t;
}

bool is_core(const std::string& name) {
  for (const char* core : {"attn_scores", "attn_softmax", "attn_dropout", "attn_context"})
    if (name.rfind(core, 0) == 0) return true;
  return false;
}

void add(StageCompute& s, const BlockPassTimes& b) {
  s.forward += b.forward;
  s.backward_input += b.backward_input;
  s.weight_grad += b.weight_grad;
}

}  // namespace

BlockTimes block_times(const RunSpec& run) {
  const ModelSpec& m = run.model;
  const Shard sh = shard_of(run);
  BlockTimes t;
  const std::vector<Kernel> attention = attention_forward(m, sh);
  t.attention = pass_times(attention, attention_backward(m, sh), run);
  t.mlp = pass_times(mlp_forward(m, sh), mlp_backward(m, sh), run);
  if (m.is_moe()) t.moe = pass_times(moe_forward(m, sh), moe_backward(m, sh), run);
  t.embedding = pass_times(embedding_forward(m, sh), embedding_backward(m, sh), run);
  t.output = pass_times(output_forward(m, sh), output_backward(m, sh), run);
  for (const Kernel& k : attention) {
    const Seconds time = kernel_time(k, run.platform.accelerator, run.precision);
    if (is_core(k.name)) t.attention_core += time;
    if (k.cls == KernelClass::kAttention) t.attention_kernel += time;
  }
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
    if (c.has_embedding) add(out, t.embedding);
    if (c.has_output) add(out, t.output);
    for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l, ++position) {
      layers.push_back(l);
      const BlockPassTimes& ffn = is_moe_layer(run.model, l) ? t.moe : t.mlp;
      add(out, t.attention);
      add(out, ffn);
      if (s.recompute == Recompute::kSelective) out.recompute += t.attention_core;
      const bool full = s.recompute == Recompute::kFull && (s.recompute_layers <= 0 || position < s.recompute_layers);
      if (full) out.recompute += t.attention.forward + ffn.forward;
    }
  }
  out.params = static_cast<double>(device_params(run.model, layers, first, last, s.tp, s.ep).total());
  const double shard = s.zero_stage >= 1 ? 1.0 / s.dp : 1.0;
  for (const Kernel& k : optimizer_step(out.params, shard))
    out.optimizer += kernel_time(k, run.platform.accelerator, run.precision);
  return out;
}

}  // namespace trainsim
