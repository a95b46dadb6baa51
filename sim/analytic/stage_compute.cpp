// Per-stage compute seconds (see stage_compute.hpp).
#include "sim/analytic/stage_compute.hpp"

#include "sim/analytic/compute_time.hpp"
#include "sim/analytic/host_time.hpp"
#include "sim/analytic/layer_recompute.hpp"
#include "sim/model/layer_ops.hpp"
#include "sim/model/optimizer_ops.hpp"
#include "sim/model/params.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {
namespace {

// One chunk's passes for one micro-batch: device seconds and launches of its forward and backward,
// the forward's since its last host synchronisation (FrameworkMoe::dispatch_sync) and the host time
// the segments that syncs closed left exposed.
struct ChunkPass {
  double forward = 0, backward = 0;
  Launches forward_launches, backward_launches;
  double forward_synced_exposed = 0;
  void add(const BlockPassTimes& b) {
    forward += b.forward;
    backward += b.backward_input + b.weight_grad;
    forward_launches += b.forward_launches;
    backward_launches += b.backward_launches;
  }
  // An MoE block with host synchronisations in its forward (the dispatcher's before the dispatch,
  // the clamped activation's after its clamps): each closes a segment.
  void add_synced(const BlockPassTimes& b, const HostCosts& h, bool dispatch_sync) {
    double done = 0;
    Launches done_launches;
    auto close_at = [&](double seconds, const Launches& launches) {
      forward += seconds - done;
      forward_launches += launches - done_launches;
      forward_synced_exposed += exposed_segment_time(h, forward, forward_launches);
      forward = 0, forward_launches = Launches{};
      done = seconds, done_launches = launches;
    };
    if (dispatch_sync) close_at(b.forward_before_dispatch, b.forward_launches_before_dispatch);
    if (b.activation_sync) close_at(b.forward_before_activation_sync, b.forward_launches_before_activation_sync);
    forward += b.forward - done;
    forward_launches += b.forward_launches - done_launches;
    backward += b.backward_input + b.weight_grad;
    backward_launches += b.backward_launches;
  }
  void add_recompute(double seconds, const Launches& launches) {
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
void add_host_time(StageCompute& s, const HostCosts& h, const ChunkLayers& c, ChunkPass p) {
  if (!h.any()) return;
  p.forward_launches.calls += (c.has_embedding ? 0 : 1) + (c.has_output ? 0 : 1);
  p.backward_launches.calls += (c.has_output ? 0 : 1) + (c.has_embedding ? 0 : 1);
  s.forward += p.forward_synced_exposed +
               exposed_host_time(h, p.forward, p.forward_launches, forward_instructions(c.has_embedding, c.has_output));
  s.backward_input +=
      exposed_host_time(h, p.backward, p.backward_launches, backward_instructions(c.has_embedding, c.has_output));
}

}  // namespace

StageCompute stage_compute(const RunSpec& run, const BlockTimes& t, const std::vector<ChunkLayers>& chunks) {
  const auto& s = run.strategy;
  const HostCosts host = host_costs_on(run.framework.host, run.platform);
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
      if (moe && (run.moe_dispatch_syncs() || ffn.activation_sync))
        pass.add_synced(ffn, host, run.moe_dispatch_syncs());
      else
        pass.add(ffn);
      const LayerRecompute redo = layer_recompute(run, t, l, position);
      out.recompute += redo.seconds;
      pass.add_recompute(redo.seconds, redo.launches);
    }
    if (c.has_output) add(out, t.output), pass.add(t.output);
    add_host_time(out, host, c, pass);
  }
  if (last && run.deferred_output_wgrads() > 0) {
    out.deferred_wgrad = run.deferred_output_wgrads() * t.output.weight_grad;
    out.weight_grad -= out.deferred_wgrad / run.microbatches();
  }
  const ParamCount device = device_params(run.model, layers, first, last, s.tp, s.ep);
  out.params = static_cast<double>(device.total());
  const double shard = zero_shard_fraction(device, s);
  for (const Kernel& k : iteration_step(device, shard, shard_of(run), run.fp8.param_gather))
    out.optimizer += kernel_time(k, run.platform.accelerator);
  return out;
}

}  // namespace trainsim
