#include <simgrid/s4u.hpp>

#include "sim/platform/build.hpp"
#include "sim/replay/comm_exec.hpp"
#include "sim/replay/runtime.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {
namespace {

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

// Blocks until every predecessor of t finished; on the compute stream the wait is charged to
// the stream of the last predecessor it was blocked on.
void wait_for(DeviceRuntime& dev, TaskId t, Stream stream) {
  Stream blocking = Stream::kCompute;
  if (preds_done(dev, t, &blocking)) return;
  const double start = sg4::Engine::get_clock();
  const auto s = static_cast<size_t>(stream);
  do {
    dev.waiting[s] = true;
    dev.wake[s]->acquire();
  } while (!preds_done(dev, t, &blocking));
  if (stream == Stream::kCompute)
    dev.stats.time[static_cast<int>(wait_category(blocking))] += sg4::Engine::get_clock() - start;
}

void finish(DeviceRuntime& dev, TaskId t) {
  dev.done[t] = 1;
  const uint8_t wake = dev.stage->cross_stream_successor[t];
  if (wake == 0) return;
  for (size_t s = 0; s < kStreams; ++s) {
    if ((wake & (1u << s)) == 0 || !dev.waiting[s]) continue;
    dev.waiting[s] = false;
    dev.wake[s]->release();
  }
}

void record(ReplayContext& ctx, const DeviceRuntime& dev, const Task& task, Stream stream, double start,
            double end) {
  if (!ctx.options.trace_devices.count(dev.rank)) return;
  std::string name = dev.stage->graph->label_text(task.label);
  ctx.trace.push_back({dev.rank, stream, std::move(name), task.microbatch, task.layer, start, end});
}

// Runs compute task order[i] and every following compute task of the same role that is already
// runnable, as one Exec (kernels of one stream run back to back); returns the index after the last
// one run. The Exec runs at the host's current speed, which interference.hpp lowers while the
// device's bytes move. A traced device runs each task alone, so each trace slice is exact.
size_t run_compute_run(ReplayContext& ctx, DeviceRuntime& dev, const std::vector<TaskId>& order, size_t i) {
  const StageGraph& g = *dev.stage->graph;
  const bool traced = ctx.options.trace_devices.count(dev.rank) > 0;
  const TaskRole role = g.task(order[i]).role;
  double work = 0;
  size_t j = i;
  do {
    work += g.task(order[j]).duration;
    ++j;
  } while (!traced && j < order.size() && !dev.stage->cross_stream_successor[order[j - 1]] &&
           g.task(order[j]).role == role && preds_done(dev, order[j], nullptr));
  const double start = sg4::Engine::get_clock();
  // exec_init + wait, not execute(): execute() also sets the default priority, one more simcall.
  if (work > 0) sg4::this_actor::exec_init(work * kHostSpeed)->wait();
  const double end = sg4::Engine::get_clock();
  dev.stats.time[static_cast<int>(busy_category(role))] += end - start;
  if (traced) record(ctx, dev, g.task(order[i]), Stream::kCompute, start, end);
  for (size_t k = i; k < j; ++k) finish(dev, order[k]);
  ctx.count_tasks(j - i);
  return j;
}

void run_comm(ReplayContext& ctx, DeviceRuntime& dev, TaskId t, Stream stream) {
  const Task& task = dev.stage->graph->task(t);
  const double start = sg4::Engine::get_clock();
  Bytes sent = 0;
  switch (task.kind) {
    case TaskKind::kCollective: sent = run_collective(ctx, dev, task, t); break;
    case TaskKind::kSend: run_send(ctx, dev, task); sent = task.bytes; break;
    case TaskKind::kRecv: run_recv(ctx, dev, task); break;
    case TaskKind::kCompute: break;
  }
  dev.stats.bytes_sent[static_cast<int>(stream)] += sent;
  record(ctx, dev, task, stream, start, sg4::Engine::get_clock());
  finish(dev, t);
  ctx.count_tasks(1);
}

}  // namespace

void run_stream(ReplayContext& ctx, DeviceRuntime& dev, Stream stream) {
  const std::vector<TaskId>& order = dev.stage->graph->order(stream);
  size_t i = 0;
  while (i < order.size()) {
    wait_for(dev, order[i], stream);
    if (stream == Stream::kCompute) {
      i = run_compute_run(ctx, dev, order, i);
    } else {
      run_comm(ctx, dev, order[i], stream);
      ++i;
    }
  }
  if (--dev.running_streams == 0) dev.stats.end = sg4::Engine::get_clock();
}

}  // namespace trainsim
