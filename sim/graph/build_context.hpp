// State shared by the pieces of the graph builder while one stage's template is built.
#pragma once
#include <memory>
#include <utility>
#include <vector>

#include "sim/analytic/comm_times.hpp"
#include "sim/analytic/host_time.hpp"
#include "sim/config/run_spec.hpp"
#include "sim/graph/kernel_templates.hpp"
#include "sim/graph/stage_graph.hpp"
#include "sim/strategy/stage_layout.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {

struct BuildContext {
  BuildContext(const RunSpec& r, StageGraph& g, KernelTemplates k)
      : run(r), graph(g), kernels(std::move(k)), host(host_costs_on(r.framework.host, r.platform)) {}
  const RunSpec& run;
  StageGraph& graph;
  KernelTemplates kernels;
  HostCosts host;  // the framework's host costs on this platform's host (host_costs_on)
  std::vector<ChunkLayers> chunks;
  // Payload sizes, bytes.
  Bytes tp_bytes = 0;      // b * s_local * h * element: TP all-reduce / reduce-scatter buffer
  Bytes tp_gather_bytes = 0;  // the SP all-gathered tensor (FP8 in 8-bit runs; run_payloads.hpp)
  Bytes cp_kv_bytes = 0;   // K and V of the whole context on this device (gathered over cp)
  Bytes ep_bytes = 0;      // tokens one device sends in an all-to-all (dispatch or combine)
  Bytes pp_bytes = 0;      // one activation (or its gradient) crossing a stage boundary
  Bytes grad_element = 0;  // bytes per gradient element in the DP reduction
  Bytes param_element = 0; // bytes per parameter element in ZeRO all-gathers
  // Tasks the next compute kernel must wait for (collective results, received activations).
  std::vector<TaskId> pending;
  // Tasks of the last backward pass per chunk that complete each layer's weight gradients,
  // in the order they finish.
  struct GradReady {
    TaskId task;
    double params;  // parameter count of that layer (or embedding, output) on this device
    double expert;  // of which routed experts' (reduced over expert_grad_dim, sim/strategy/mesh.hpp)
    // What the routed experts' bucket closing here waits for, when not `task` (their per-bucket
    // kernels after the dense bucket's: sim/graph/grad_checks.hpp).
    int64_t expert_task = -1;
    [[nodiscard]] TaskId expert_ready() const { return expert_task >= 0 ? static_cast<TaskId>(expert_task) : task; }
  };
  std::vector<std::vector<GradReady>> grad_ready;
  // Gradient buckets being filled for the per-bucket kernels (sim/graph/grad_checks.hpp): parameters
  // of the dense and routed-expert buckets not yet checked, and ready items still to come.
  double check_dense = 0, check_expert = 0;
  int ready_left = 0;
  // Micro-batches whose output-layer weight gradient waits for the pipeline flush
  // (strategy.defer_output_wgrad), in the order their backward ran.
  std::vector<int> deferred_output;
  int microbatches = 1;
  int64_t prefetched = -1;  // ZeRO-3: parameter gather already issued for the next layer
  // ZeRO-1/2 with overlap: the start-of-iteration parameter gather (bucket) each layer's first
  // forward waits for, by global layer index; -1 when none is pending.
  std::vector<int64_t> layer_param_gather;
  std::vector<int64_t> layer_expert_gather;  // the same for the routed experts' gather (ep > 1)
  // Host time (sim/graph/host_time.hpp): where the current host segment began (its pass, or the
  // last host synchronisation inside it), and the tasks issued since that make launches beyond their
  // one (library launches, eager per-expert loops), by position in the graph, in order.
  size_t host_segment_start = 0;
  bool host_lead_carried = false;  // the segment began at a pass boundary without a synchronisation
  std::vector<std::pair<size_t, ExtraLaunches>> host_extras;
  // EP exchanges of the current segment that a compute task waited for (the MoE dispatcher's
  // all-to-alls): the compute stream stands still while they run, and the host issues on meanwhile.
  // Their time there is the formulas' uncontended one for the stage's first rank (`comm`, built only
  // when the framework has host costs). TP collectives a kernel waits for (without tp_comm overlap)
  // are not counted so: the formulas, which do the same, place them at their block's start.
  std::vector<TaskId> host_waits;
  std::unique_ptr<CommCosts> comm;
  int comm_rank = 0;
};

// Adds a compute task that waits for everything pending. A weight-gradient kernel does not: it runs
// beside the collective its input gradient began (Megatron's asynchronous TP all-reduce or SP
// reduce-scatter of that gradient), unless the run turns strategy.overlap.tp_grad_reduce off: a
// framework without that overlap, or blocking launches (CUDA_LAUNCH_BLOCKING=1), where each launch
// returns only once its kernel has ended. (Under blocking launches the backward's SP re-gather and
// the CP K/V exchange still run beside their kernels: not modelled as serial.)
TaskId add_compute(BuildContext& ctx, Task task, bool wgrad = false);
// Adds a communication task that starts after the last compute task issued so far.
TaskId add_comm_after_compute(BuildContext& ctx, Task task);
[[nodiscard]] Task collective_task(BuildContext& ctx, const char* label, CollectiveKind kind, Dim dim, Bytes bytes,
                                   TaskRole role, int microbatch, int layer);

}  // namespace trainsim
