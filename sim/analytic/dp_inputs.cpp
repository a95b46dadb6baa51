// DP gradient buckets and ZeRO-1/2 gathers of one stage (see dp_inputs.hpp).
#include "sim/analytic/dp_inputs.hpp"

#include <algorithm>

#include "sim/analytic/compute_time.hpp"
#include "sim/analytic/host_time.hpp"
#include "sim/analytic/layer_recompute.hpp"
#include "sim/analytic/overlap_points.hpp"
#include "sim/model/grad_bucket_ops.hpp"
#include "sim/model/layer_ops.hpp"
#include "sim/model/params.hpp"

namespace trainsim {

LayerParams layer_params_of(const RunSpec& run) {
  const auto& s = run.strategy;
  LayerParams p;
  p.embedding = static_cast<double>(device_params(run.model, {}, true, false, s).embedding);
  for (int l = 0; l < run.model.layers + run.model.mtp_layers; ++l) {
    const ParamCount c = layer_params_on_device(run.model, l, s);
    // The first MTP layer's gradients complete with the embedding copy its module reads
    // (sim/graph/layer_tasks.cpp layer_params).
    const double copy = l == run.model.layers ? static_cast<double>(mtp_embedding_copy_params(run.model, s.tp, s.pp)) : 0;
    p.layer.push_back(static_cast<double>(c.total()) + copy);
    p.expert.push_back(static_cast<double>(c.expert()));
  }
  p.output = static_cast<double>(device_params(run.model, {}, false, true, s).total());
  return p;
}

namespace {

// One item of a stage's parameters in the order a pass reaches it: its parameter count and the
// compute seconds of that pass spent on it.
struct PassItem {
  double params = 0, seconds = 0;
  size_t chunk = 0;
  double expert = 0;  // of `params`, the routed experts'
};

// The last backward's items in the order their gradients complete (chunks in reverse, output first,
// layers descending, embedding last), each with its backward kernels and any recompute before them.
// Deferred output weight gradients (strategy.defer_output_wgrad) complete the output's after all of
// them, in the flush.
std::vector<PassItem> backward_items(const RunSpec& run, const BlockTimes& bt, const std::vector<ChunkLayers>& chunks,
                                     const LayerParams& lp) {
  auto bwd = [](const BlockPassTimes& b) { return b.backward_input + b.weight_grad; };
  std::vector<int> first_position;  // stage position of each chunk's first layer (recompute_layers counts these)
  int position = 0;
  for (const ChunkLayers& c : chunks) first_position.push_back(position), position += c.layer_count;
  std::vector<PassItem> items, flush;  // flush: the output's, completed by the deferred weight gradients
  for (size_t k = chunks.size(); k-- > 0;) {
    const ChunkLayers& c = chunks[k];
    if (c.has_output) (run.deferred_output_wgrads() > 0 ? flush : items).push_back({lp.output, bwd(bt.output), k});
    for (int l = c.first_layer + c.layer_count - 1; l >= c.first_layer; --l) {
      const BlockPassTimes& ffn = is_moe_layer(run.model, l) ? bt.moe : bt.mlp;
      const BlockPassTimes& attention = bt.attention_of(is_window_layer(run.model, l));
      const double redo = layer_recompute(run, bt, l, first_position[k] + (l - c.first_layer)).seconds;
      const double mtp = is_mtp_layer(run.model, l) ? bt.mtp_backward_input() + bt.mtp_weight_grad() : 0;
      items.push_back({lp.layer[static_cast<size_t>(l)], bwd(attention) + bwd(ffn) + redo + mtp, k,
                       lp.expert[static_cast<size_t>(l)]});
    }
    if (c.has_embedding) items.push_back({lp.embedding, bwd(bt.embedding), k});
  }
  items.insert(items.end(), flush.begin(), flush.end());
  return items;
}

// The first forward's items in forward order (per chunk: embedding, layers, output).
std::vector<PassItem> forward_items(const RunSpec& run, const BlockTimes& bt, const std::vector<ChunkLayers>& chunks,
                                    const LayerParams& lp) {
  std::vector<PassItem> items;
  for (size_t k = 0; k < chunks.size(); ++k) {
    const ChunkLayers& c = chunks[k];
    if (c.has_embedding) items.push_back({lp.embedding, bt.embedding.forward, k});
    for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l)
      items.push_back({lp.layer[static_cast<size_t>(l)],
                       bt.attention_of(is_window_layer(run.model, l)).forward +
                           (is_moe_layer(run.model, l) ? bt.moe : bt.mlp).forward +
                           (is_mtp_layer(run.model, l) ? bt.mtp_forward() : 0),
                       k, lp.expert[static_cast<size_t>(l)]});
    if (c.has_output) items.push_back({lp.output, bt.output.forward, k});
  }
  return items;
}

double pass_seconds(const std::vector<PassItem>& items) {
  double t = 0;
  for (const PassItem& i : items) t += i.seconds;
  return t;
}

// Where the passes of the chunks lie in time, in units of one micro-batch's pass over all chunks:
// interleaved 1F1B walks the chunks in rounds of p micro-batches (sim/graph/schedules/
// interleaved.cpp), so p passes of the other chunks run between two chunks' first forwards, and
// between two chunks' last backwards. Chunk c's pass is `chunk_offset(c)` chunk passes away from
// the first forward's start (or the last backward's end).
double chunk_offset(const RunSpec& run, size_t chunk) {
  return static_cast<double>(chunk) * (run.strategy.virtual_stages > 1 ? run.strategy.pp : 1);
}

// Gradient buckets as the graph builder cuts them (sim/graph/grad_sync.cpp): items in ready order,
// a bucket closing once it reaches grad_bucket_size (and at the last item). Per bucket: its bytes
// and the share of the stage's backward (one micro-batch, all chunks) that runs after it is ready.
// With ep > 1 the routed experts fill buckets of their own, reduced over the expert data-parallel
// group (none when it is one device), issued in the order they fill on the one DP stream.
struct Buckets {
  std::vector<Bytes> bytes;
  std::vector<double> share;
  std::vector<Dim> dim;  // the group each bucket is reduced over (kDpCp, or kEdp for the experts')
};

// The parameters of `item` per group, as the graph splits them (grad_split).
GradSplit split_params(const RunSpec& run, const PassItem& item) {
  return grad_split(run.strategy, item.params, item.expert);
}

Buckets grad_buckets(const RunSpec& run, const std::vector<PassItem>& items, double element) {
  const double total = pass_seconds(items);
  const double chunk_pass = total / std::max<size_t>(1, run.strategy.virtual_stages);
  std::vector<double> after(items.size(), 0);  // compute of the item's chunk pass after the item
  for (size_t i = items.size(); i-- > 1;)
    after[i - 1] = items[i - 1].chunk == items[i].chunk ? after[i] + items[i].seconds : 0;
  Buckets out;
  double dense = 0, expert = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const auto [d, e] = split_params(run, items[i]);
    dense += d, expert += e;
    const bool last = i + 1 == items.size();
    const double left = after[i] + chunk_offset(run, items[i].chunk) * chunk_pass;
    for (auto [bucket, dim] : {std::pair<double*, Dim>{&dense, Dim::kDpCp}, {&expert, Dim::kEdp}}) {
      if (!bucket_closes(*bucket, element, run.strategy.grad_bucket_size, last)) continue;
      out.bytes.push_back(*bucket * element);
      out.share.push_back(total > 0 ? left / total : 0);
      out.dim.push_back(dim);
      *bucket = 0;
    }
  }
  return out;
}

// ZeRO-1/2 parameter gathers with prefetch, cut as grad_sync.cpp cuts them: per chunk, embedding
// and layers in forward order (the output joins the last layer), a bucket closing once it reaches
// grad_bucket_size. Per bucket: its bytes and the share of the stage's forward (one micro-batch,
// all chunks) that has run before its first layer starts (each layer's forward waits for its
// bucket; the embedding's does not).
// A bucket holds as many parameters as a gradient bucket (grad_bucket_size / grad_element: Megatron-Core
// sizes its parameter and gradient buckets alike, in parameters); a gather moves `element` per
// parameter (FP8 weights with fp8.param_gather).
Buckets param_buckets(const RunSpec& run, const std::vector<ChunkLayers>& chunks, const std::vector<PassItem>& items,
                      double element, double grad_element) {
  const double total = pass_seconds(items);
  const double chunk_pass = total / std::max<size_t>(1, chunks.size());
  const double bucket_params = run.strategy.grad_bucket_size / grad_element;
  Buckets out;
  size_t at = 0;  // index into items, which follow the same order
  for (size_t k = 0; k < chunks.size(); ++k) {
    const ChunkLayers& c = chunks[k];
    struct Fill {
      double params = 0, opened = -1;
      Dim dim;
    } fills[2] = {{0, -1, Dim::kDpCp}, {0, -1, Dim::kEdp}};
    double done = chunk_offset(run, k) * chunk_pass;
    if (c.has_embedding) fills[0].params += items[at].params, done += items[at++].seconds;
    const int end = c.first_layer + c.layer_count;
    for (int l = c.first_layer; l < end; ++l) {
      const bool last = l + 1 == end;
      const auto [dense, expert] = split_params(run, items[at]);
      fills[0].params += dense;
      if (fills[0].opened < 0) fills[0].opened = done;
      if (expert > 0) {
        fills[1].params += expert;
        if (fills[1].opened < 0) fills[1].opened = done;
      }
      done += items[at++].seconds;
      if (last && c.has_output) fills[0].params += items[at].params, done += items[at++].seconds;
      for (Fill& f : fills) {
        if (f.opened < 0 || (f.params < bucket_params && !last)) continue;
        out.bytes.push_back(f.params * element);
        out.share.push_back(total > 0 ? f.opened / total : 0);
        out.dim.push_back(f.dim);
        f.params = 0, f.opened = -1;
      }
    }
  }
  return out;
}

// The per-bucket kernels before each reduction (strategy.grad_nan_check, grad_scale_kernel;
// sim/graph/grad_checks.hpp): the norm reads the bucket's gradients, the scaling reads and writes them.
// The norm takes its device time, or its launch where the host is the limit (blocking launches add
// it); the scaling after the norm's host synchronisation is issued to an empty queue and waits for its
// launch first (sim/analytic/host_time.hpp).
double grad_check_seconds(const RunSpec& run, const Buckets& b, double element) {
  const AcceleratorSpec& acc = run.platform.accelerator;
  const HostCosts host = host_costs_on(run.framework.host, run.platform);
  const double launch = host.any() ? launch_seconds(host, Launches{1, 0}) : 0;
  auto seconds = [&](const Kernel& k, bool after_sync) {
    const double device = kernel_time(k, acc);
    return host.launch_blocking || after_sync ? device + launch : std::max(device, launch);
  };
  const bool check = run.strategy.grad_nan_check;
  double t = 0;
  for (Bytes bytes : b.bytes) {
    const double params = bytes / element;
    if (check) t += seconds(grad_norm_kernel(params, element), false);
    if (run.strategy.grad_scale_kernel) t += seconds(grad_scale_kernel(params, element), check);
  }
  return t;
}

}  // namespace

// Once per iteration: DP gradient buckets and ZeRO-1/2 parameter gathers, with the points of their
// race against the last backward and the first forward (overlap_points.hpp).
void add_dp_comm(const RunSpec& run, const CommCosts& cc, int rank, const Payloads& pl, double params,
                 const BlockTimes& bt, const std::vector<ChunkLayers>& chunks, const LayerParams& lp,
                 StageInputs& out) {
  const auto& s = run.strategy;
  if (s.dp * s.cp <= 1) return;
  const bool sharded = s.zero_stage == 1 || s.zero_stage == 2;
  if (s.zero_stage < 3) {
    const CollectiveKind kind = sharded ? CollectiveKind::kReduceScatter : CollectiveKind::kAllReduce;
    const Buckets b = grad_buckets(run, backward_items(run, bt, chunks, lp), pl.grad_element);
    std::vector<double> seconds;
    for (size_t i = 0; i < b.bytes.size(); ++i) seconds.push_back(cc.collective(rank, b.dim[i], kind, b.bytes[i]));
    for (double t : seconds) out.dp_reduce += t;
    out.grad_checks = grad_check_seconds(run, b, pl.grad_element);
    out.dp_reduce_points = reduction_points(seconds, b.share);
    out.dp_reduce_window = b.share.empty() ? 0 : b.share.front();
  }
  if (!sharded) return;
  if (!s.overlap.zero_param_gather) {
    double experts = 0;  // the stage's routed experts' parameters
    for (const ChunkLayers& c : chunks)
      for (int l = c.first_layer; l < c.first_layer + c.layer_count; ++l) experts += lp.expert[static_cast<size_t>(l)];
    const GradSplit g = grad_split(s, params, experts);
    out.param_gather = cc.collective(rank, Dim::kDpCp, CollectiveKind::kAllGather, g.dense * pl.param_element);
    if (g.expert > 0)
      out.param_gather += cc.collective(rank, Dim::kEdp, CollectiveKind::kAllGather, g.expert * pl.param_element);
    return;
  }
  const Buckets b = param_buckets(run, chunks, forward_items(run, bt, chunks, lp), pl.param_element, pl.grad_element);
  std::vector<double> seconds;
  for (size_t i = 0; i < b.bytes.size(); ++i)
    seconds.push_back(cc.collective(rank, b.dim[i], CollectiveKind::kAllGather, b.bytes[i]));
  for (double t : seconds) out.param_gather += t;
  out.param_gather_points = gather_points(seconds, b.share);
}

}  // namespace trainsim
