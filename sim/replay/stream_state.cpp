#include "sim/replay/stream_state.hpp"

namespace trainsim {

bool preds_done(const DeviceRuntime& dev, TaskId t, Stream* blocking) {
  const CompiledStage& cs = *dev.stage;
  for (uint32_t i = cs.pred_begin[t]; i < cs.pred_begin[t + 1]; ++i) {
    const TaskId p = cs.preds[i];
    if (!dev.done[p]) {
      if (blocking) *blocking = cs.graph->task(p).stream;
      return false;
    }
  }
  return true;
}

TimeCategory wait_category(Stream s) {
  switch (s) {
    case Stream::kTp: return TimeCategory::kExposedTp;
    case Stream::kCp: return TimeCategory::kExposedCp;
    case Stream::kEp: return TimeCategory::kExposedEp;
    case Stream::kDp: return TimeCategory::kExposedDp;
    case Stream::kPpSend: return TimeCategory::kExposedPp;
    default: return TimeCategory::kBubble;
  }
}

TimeCategory busy_category(TaskRole role) {
  switch (role) {
    case TaskRole::kBackward: return TimeCategory::kBackward;
    case TaskRole::kRecompute: return TimeCategory::kRecompute;
    case TaskRole::kOptimizer: return TimeCategory::kOptimizer;
    case TaskRole::kHost: return TimeCategory::kHost;
    default: return TimeCategory::kForward;
  }
}

void record(ReplayContext& ctx, const DeviceRuntime& dev, const Task& task, Stream stream, double start,
            double end) {
  if (!ctx.options.trace_devices.count(dev.rank)) return;
  std::string name = dev.stage->graph->label_text(task.label);
  ctx.trace.push_back({dev.rank, stream, std::move(name), task.microbatch, task.layer, start, end});
}

}  // namespace trainsim
