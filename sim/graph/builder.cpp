#include "sim/graph/builder.hpp"

#include "sim/analytic/run_payloads.hpp"

#include "sim/graph/chunk_tasks.hpp"
#include "sim/graph/grad_checks.hpp"
#include "sim/graph/grad_sync.hpp"
#include "sim/graph/merged_passes.hpp"
#include "sim/graph/schedule.hpp"
#include "sim/model/params.hpp"
#include "sim/model/shard.hpp"
#include "sim/strategy/ep_overlap.hpp"
#include "sim/strategy/schedule_shape.hpp"

namespace trainsim {
namespace {

void set_payload_sizes(BuildContext& ctx) {
  const Payloads p = payloads(ctx.run);
  ctx.tp_bytes = p.tp;
  ctx.tp_gather_bytes = p.tp_gather;
  ctx.cp_kv_bytes = p.cp_kv;
  ctx.ep_bytes = p.ep;
  ctx.pp_bytes = p.pp;
  ctx.grad_element = p.grad_element;
  ctx.param_element = p.param_element;
}

std::vector<int> stage_layers(const std::vector<ChunkLayers>& chunks) {
  std::vector<int> layers;
  for (const auto& c : chunks)
    for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l) layers.push_back(l);
  return layers;
}

// Index of the last step that runs a backward (or weight-gradient) pass of each chunk.
std::vector<size_t> final_backward_steps(const std::vector<ScheduleStep>& steps, int chunks) {
  std::vector<size_t> last(static_cast<size_t>(chunks), 0);
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].phase != Phase::kForward && steps[i].phase != Phase::kBackwardInput)
      last[static_cast<size_t>(steps[i].chunk)] = i;
  return last;
}

}  // namespace

ParamCount stage_params(const RunSpec& run, int stage) {
  const auto& s = run.strategy;
  const auto chunks = stage_chunks(pipeline_split(run), stage);
  bool first = false, last = false;
  for (const auto& c : chunks) {
    first = first || c.has_embedding;
    last = last || c.has_output;
  }
  return device_params(run.model, stage_layers(chunks), first, last, s);
}

StageGraph build_stage_graph(const RunSpec& run, int stage) {
  const auto& s = run.strategy;
  StageGraph graph(stage);
  BuildContext ctx(run, graph, make_kernel_templates(run, graph, stage_params(run, stage)));
  ctx.chunks = stage_chunks(pipeline_split(run), stage);
  // Combined 1F1B (merged EP passes) runs each lane's exchange beside the other lane's kernels: there
  // the exchanges do not hold the compute stream.
  if (ctx.host.any() && !merges_ep_passes(run)) {
    ctx.comm = std::make_unique<CommCosts>(run);
    ctx.comm_rank = ctx.comm->mesh().rank_at_stage(0, stage);
  }
  ctx.grad_ready.resize(ctx.chunks.size());
  ctx.ready_left = ready_items(ctx);
  ctx.microbatches = run.microbatches();
  set_payload_sizes(ctx);
  const ScheduleParams params{s.pp, ctx.microbatches, s.virtual_stages, pipeline_shape(run).extra_warmup};
  const auto steps = find_schedule(s.schedule).steps(params, stage);
  const auto final_steps = final_backward_steps(steps, s.virtual_stages);
  emit_param_prefetch(ctx);
  const bool merge = merges_ep_passes(run);
  for (size_t i = 0; i < steps.size(); ++i) {
    const ScheduleStep& step = steps[i];
    const auto chunk = static_cast<size_t>(step.chunk);
    const bool final_pass = final_steps[chunk] == i;
    if (merge && i + 1 < steps.size() && mergeable(step, steps[i + 1])) {
      const bool forward_first = step.phase == Phase::kForward;
      const ScheduleStep& backward = forward_first ? steps[i + 1] : step;
      const size_t backward_at = forward_first ? i + 1 : i;
      emit_merged_passes(ctx, forward_first ? step : steps[i + 1], backward,
                         final_steps[static_cast<size_t>(backward.chunk)] == backward_at);
      ++i;
      continue;
    }
    switch (step.phase) {
      case Phase::kForward:
        emit_chunk_forward(ctx, step.chunk, step.microbatch);
        break;
      case Phase::kBackward: emit_chunk_backward(ctx, step.chunk, step.microbatch, BackwardPart::kAll, final_pass); break;
      case Phase::kBackwardInput:
        emit_chunk_backward(ctx, step.chunk, step.microbatch, BackwardPart::kInputGrad, false);
        break;
      case Phase::kWeightGrad:
        emit_chunk_backward(ctx, step.chunk, step.microbatch, BackwardPart::kWeightGrad, final_pass);
        break;
    }
  }
  emit_deferred_output_wgrads(ctx);
  emit_grad_sync_and_optimizer(ctx);
  return graph;
}

RunGraph build_run_graph(const RunSpec& run) {
  RunGraph out;
  for (int stage = 0; stage < run.strategy.pp; ++stage) out.stages.push_back(build_stage_graph(run, stage));
  return out;
}

}  // namespace trainsim
