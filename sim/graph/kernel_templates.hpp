// Kernels of every block a stage runs, turned into compute Task templates (label interned,
// duration from the accelerator's roofline) once per stage, then copied per micro-batch/layer.
// This is the one place the graph builder calls into the model catalogue.
#pragma once
#include "sim/model/params.hpp"
#include <vector>

#include "sim/config/run_spec.hpp"
#include "sim/graph/stage_graph.hpp"

namespace trainsim {

// Where a block's communication regions begin and end: the first and last GEMM inside the TP region
// (bounds of the TP region; MLA's duplicated down-projections lie outside it, sim/model/mla_ops.hpp) and the first expert kernel and last expert GEMM (bounds of the EP dispatch/combine: the
// dispatch comes before the experts' input quantization in 8-bit runs), as indices into the kernel
// list, -1 when absent. Weight-gradient kernels never bound a region.
// A kernel's launches beyond its first: library launches, and further operations the framework issues.
struct ExtraLaunches {
  uint16_t library = 0, calls = 0;
};

struct BlockMarks {
  // Kernels' indices; in a backward, weight-gradient kernels are left out (a zero-bubble schedule
  // runs them later), except in last_expert_any.
  int first_gemm = -1, last_gemm = -1, first_expert = -1, last_expert = -1;
  // The expert block's last kernel, weight gradients counted: in a whole backward the EP exchange of
  // the dispatch's gradient is issued after it (block_tasks.cpp).
  int last_expert_any = -1;
  // The kernel after which the forward waits for the device (a clamped GLU's clamps, whose activation
  // makes a device scalar from the host: FrameworkMoe::separate_glu_clamp); -1 when none.
  int host_sync_after = -1;
};

struct BlockTemplate {
  std::vector<Task> forward;   // in execution order
  std::vector<Task> backward;  // in execution order; weight-gradient kernels flagged by wgrad
  std::vector<uint8_t> wgrad;  // wgrad[i]: backward[i] computes weight gradients (zero-bubble W)
  // Launches beyond one of each kernel (a grouped GEMM run as one GEMM per expert; eager operations
  // of a per-expert loop), for the host time; empty when every kernel is one launch.
  std::vector<ExtraLaunches> forward_extra_launches, backward_extra_launches;
  BlockMarks forward_marks, backward_marks;  // fixed per template: computed once
  // The TP region's input per token relative to the hidden width: what the SP all-gather before its
  // first GEMM, the backward's re-gather of that input and the backward's reduction of its gradient
  // move (1; MLA's attention: its latents, mla_ops.hpp tp_input_width). The row-parallel output's
  // reduction and its gradient's gather stay at the hidden width.
  double tp_input_scale = 1;
};

struct KernelTemplates {
  BlockTemplate attention, mlp, moe, embedding, output;
  // A multi-token-prediction module's projection part (sim/model/mtp_ops.hpp); empty without MTP.
  BlockTemplate mtp_in;
  // The attention block of the model's sliding-window layers (empty without a window).
  BlockTemplate attention_window;
  // Forward only: what selective recompute re-runs before each block's backward, by the run's
  // recompute_modules (sim/model/recompute_ops.hpp); empty when nothing is (e.g. core_attn with
  // flash attention, whose backward kernel recomputes the scores itself).
  BlockTemplate attention_redo, attention_window_redo, mlp_redo, moe_redo;
  Task optimizer;              // optimizer step over this device's parameter shard
  Bytes dense_layer_params = 0;  // parameters of one dense layer on this device (count)
  Bytes moe_layer_params = 0;    // parameters of one MoE layer on this device (count)
  Bytes moe_layer_expert_params = 0;  // of which its routed experts' (count)
  Bytes mtp_layer_params = 0;    // parameters of one MTP layer and its projection part on this device (count)
  Bytes mtp_layer_expert_params = 0;  // of which its routed experts' (count)
  // The embedding copy the MTP modules read on a last stage that is not the first (pp > 1, untied), count.
  Bytes mtp_embedding_params = 0;
  Bytes embedding_params = 0;
  Bytes output_params = 0;
};

// A catalogue kernel as a compute task of `role`, timed by the roofline (kernel_time).
[[nodiscard]] Task to_task(const Kernel& k, const RunSpec& run, StageGraph& graph, TaskRole role);

// `stage_params` is the parameter count this device holds (for the optimizer kernel).
[[nodiscard]] KernelTemplates make_kernel_templates(const RunSpec& run, StageGraph& graph, const ParamCount& stage_params);

}  // namespace trainsim
