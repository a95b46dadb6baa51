// Per-stage compute seconds (see stage_compute.hpp).
#include "sim/analytic/stage_compute.hpp"

#include "sim/analytic/compute_time.hpp"
#include "sim/analytic/host_time.hpp"
#include "sim/analytic/layer_recompute.hpp"
#include "sim/analytic/optimizer_time.hpp"
#include "sim/model/layer_ops.hpp"
#include "sim/model/optimizer_ops.hpp"
#include "sim/model/params.hpp"
#include "sim/model/shard.hpp"

namespace trainsim {
namespace {

// One chunk's passes for one micro-batch, as the host issues their launches: the forward in layer
// order, the backward in reverse (the output layer's first, each layer's recompute before its blocks'
// backward), each opened by its pipeline receive and closed by its send.
struct ChunkPass {
  IssueSegments forward, backward;
  ChunkPass(const ChunkLayers& c, const HostCosts& h) {
    forward.add(issue_span(h, Launches{c.has_embedding ? 0 : 1, 0}, 0));   // receive the activation
    backward.add(issue_span(h, Launches{c.has_embedding ? 0 : 1, 0}, 0));  // send the input gradient
  }
  void add(const BlockPassTimes& b) {
    forward = forward.then(b.forward_issue);
    backward = b.backward_issue.then(backward);
  }
  void add_recompute(const IssueSegments& before) { backward = before.then(backward); }
  void close(const ChunkLayers& c, const HostCosts& h) {
    forward.add(issue_span(h, Launches{c.has_output ? 0 : 1, 0}, 0));  // send the activation
    IssueSegments receive;                                               // receive the output gradient
    receive.add(issue_span(h, Launches{c.has_output ? 0 : 1, 0}, 0));
    backward = receive.then(backward);
  }
};

void add(StageCompute& s, const BlockPassTimes& b) {
  s.forward += b.forward;
  s.backward_input += b.backward_input;
  s.weight_grad += b.weight_grad;
}

// The host time the framework leaves exposed in a chunk's two passes, added to the stage's
// forward and input-gradient times.
// `first`, `last`: the chunk's stage is the pipeline's first / last.
void add_host_time(StageCompute& s, const RunSpec& run, const HostCosts& h, const ChunkLayers& c, ChunkPass p,
                   bool first, bool last) {
  if (!h.any()) return;
  p.close(c, h);
  p.forward.lead_carried = !pass_starts_empty(run, first, last, false);
  p.backward.lead_carried = !pass_starts_empty(run, first, last, true);
  s.forward += exposed_host_time(h, p.forward, forward_instructions(c.has_embedding, c.has_output));
  s.backward_input += exposed_host_time(h, p.backward, backward_instructions(c.has_embedding, c.has_output));
}

}  // namespace

StageCompute stage_compute(const RunSpec& run, const BlockTimes& t, const std::vector<ChunkLayers>& chunks) {
  const auto& s = run.strategy;
  const HostCosts host = host_costs_on(run.framework.host, run.platform);
  StageCompute out;
  std::vector<int> layers;
  bool first = false, last = false;  // the stage is the pipeline's first / last
  for (const ChunkLayers& c : chunks) {
    first = first || c.has_embedding;
    last = last || c.has_output;
  }
  int position = 0;  // layer index inside the stage, chunk by chunk (recompute_layers counts these)
  const bool hosted = host.any();  // without host costs the issue order adds nothing: not built
  for (const ChunkLayers& c : chunks) {
    ChunkPass pass(c, host);
    if (c.has_embedding) {
      add(out, t.embedding);
      if (hosted) pass.add(t.embedding);
    }
    for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l, ++position) {
      layers.push_back(l);
      const bool moe = is_moe_layer(run.model, l);
      const BlockPassTimes& ffn = moe ? t.moe : t.mlp;
      const BlockPassTimes& attention = t.attention_of(is_window_layer(run.model, l));
      const LayerRecompute redo = layer_recompute(run, t, l, position);
      const bool mtp = is_mtp_layer(run.model, l);  // its module: embedding and projection, then the head
      if (mtp) add(out, t.embedding), add(out, t.mtp_in);
      add(out, attention);
      add(out, ffn);
      if (mtp) add(out, t.output);
      out.recompute += redo.seconds;
      if (!hosted) continue;
      if (mtp) pass.add(t.embedding), pass.add(t.mtp_in);
      pass.add(attention);
      pass.add_recompute(redo.attention_issue);
      pass.add(ffn);
      pass.add_recompute(redo.ffn_issue);
      if (mtp) pass.add(t.output);
    }
    if (c.has_output) {
      add(out, t.output);
      if (hosted) pass.add(t.output);
    }
    add_host_time(out, run, host, c, pass, first, last);
  }
  if (last && run.deferred_output_wgrads() > 0) {
    out.deferred_wgrad = run.deferred_output_wgrads() * t.output.weight_grad;
    out.weight_grad -= out.deferred_wgrad / run.microbatches();
  }
  const ParamCount device = device_params(run.model, layers, first, last, s);
  out.params = static_cast<double>(device.total());
  const double shard = zero_shard_fraction(device, s);
  const StepCost step = optimizer_step_cost(run, device, shard);
  out.optimizer = step.device;
  out.offloaded_step = step.host;
  return out;
}

}  // namespace trainsim
