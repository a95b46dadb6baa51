#include "sim/report/metrics.hpp"

#include "sim/model/layer_ops.hpp"
#include "sim/model/model_flops.hpp"

namespace trainsim {

Flops narayanan_flops(const RunSpec& run) {
  const ModelSpec& m = run.model;
  Flops total = model_flops(m, run.global_batch, run.seq_len);
  if (run.strategy.recompute == Recompute::kFull)
    for (int l = 0; l < m.layers; ++l) total += layer_forward_model_flops(m, l, run.global_batch, run.seq_len);
  return total;
}

RunMetrics compute_metrics(const RunSpec& run, const Timeline& timeline) {
  RunMetrics out;
  out.iteration_time = timeline.iteration_time;
  out.devices = run.devices;
  out.devices_replayed = static_cast<int>(timeline.devices.size());
  out.model_flops = model_flops(run.model, run.global_batch, run.seq_len);
  out.narayanan_flops = narayanan_flops(run);
  if (timeline.iteration_time > 0) {
    const double t = timeline.iteration_time;
    out.tokens_per_s = static_cast<double>(run.global_batch) * run.seq_len / t;
    out.tflops_per_device = out.narayanan_flops / t / run.devices / 1e12;
    const auto& peaks = run.platform.accelerator.peak_flops;
    auto it = peaks.find(run.precision);
    if (it != peaks.end() && it->second > 0) out.mfu = out.model_flops / (t * run.devices * it->second);
  }
  for (const auto& d : timeline.devices)
    for (int c = 0; c < kTimeCategories; ++c) out.breakdown[static_cast<size_t>(c)] += d.time[static_cast<size_t>(c)];
  if (!timeline.devices.empty())
    for (auto& v : out.breakdown) v /= static_cast<double>(timeline.devices.size());
  return out;
}

}  // namespace trainsim
