#include "sim/report/metrics.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/model/model_flops.hpp"

namespace trainsim {

Flops narayanan_flops(const RunSpec& run) {
  const ModelSpec& m = run.model;
  Flops total = model_flops(m, run.global_batch, run.seq_len);
  // Full recompute re-runs every layer's forward, the MTP modules' too, as the graph does
  // (sim/graph/layer_tasks.cpp); not the logits.
  if (run.strategy.recompute == Recompute::kFull) total += layers_forward_model_flops(m, run.global_batch, run.seq_len);
  return total;
}

namespace {

// Inputs are bounded to plausible ranges at load time (sim/config/plausible_ranges), so a non-finite
// figure here is a defect of trainsim, never something to print: it stops as an internal error.
void require_finite(const RunMetrics& m, const RunSpec& run) {
  bool finite = std::isfinite(m.iteration_time) && std::isfinite(m.tokens_per_s) && std::isfinite(m.mfu) &&
                std::isfinite(m.tflops_per_device);
  for (double v : m.breakdown) finite = finite && std::isfinite(v);
  if (!finite)
    throw std::logic_error("the replay of run '" + run.name + "' gave a non-finite figure (iteration time " +
                           std::to_string(m.iteration_time) + " s); this is a defect of trainsim, please report it with the run file");
}

}  // namespace

double tokens_per_second(const RunSpec& run, Seconds t) { return static_cast<double>(run.global_batch) * run.seq_len / t; }

double model_flops_utilization(const RunSpec& run, Seconds t) {
  const auto peak = run.platform.accelerator.peak_flops.find(run.precision);
  if (peak == run.platform.accelerator.peak_flops.end() || peak->second <= 0) return 0;
  return model_flops(run.model, run.global_batch, run.seq_len) / (t * run.devices * peak->second);
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
    out.tokens_per_s = tokens_per_second(run, t);
    out.tflops_per_device = out.narayanan_flops / t / run.devices / 1e12;
    out.mfu = model_flops_utilization(run, t);
  }
  for (const auto& d : timeline.devices)
    for (int c = 0; c < kTimeCategories; ++c) out.breakdown[static_cast<size_t>(c)] += d.time[static_cast<size_t>(c)];
  if (!timeline.devices.empty())
    for (auto& v : out.breakdown) v /= static_cast<double>(timeline.devices.size());
  require_finite(out, run);
  return out;
}

}  // namespace trainsim
