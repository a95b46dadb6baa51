#include "sim/graph/host_time.hpp"

#include <utility>

namespace trainsim {
namespace {

// Device seconds and launches of the tasks issued since the segment began: one call per task, and
// the library launches some of them make beyond their first.
std::pair<Seconds, Launches> segment_work(const BuildContext& ctx, int trailing_launches) {
  Seconds device = 0;
  const size_t end = ctx.graph.size();
  for (size_t id = ctx.host_segment_start; id < end; ++id) {
    const Task& t = ctx.graph.task(static_cast<TaskId>(id));
    if (t.kind == TaskKind::kCompute) device += t.duration;
  }
  const Launches n{static_cast<int>(end - ctx.host_segment_start) + trailing_launches + ctx.host_extra_calls,
                   ctx.host_extra_launches};
  return {device, n};
}

void add_host_task(BuildContext& ctx, Seconds exposed, int microbatch) {
  if (exposed <= 0) return;
  Task t;
  t.kind = TaskKind::kCompute;
  t.stream = Stream::kCompute;
  t.role = TaskRole::kHost;
  t.label = ctx.graph.label("host.launches");
  t.microbatch = microbatch;
  t.duration = exposed;
  add_compute(ctx, t);
}

void new_segment(BuildContext& ctx) {
  ctx.host_segment_start = ctx.graph.size();
  ctx.host_extra_launches = 0;
  ctx.host_extra_calls = 0;
}

}  // namespace

void begin_pass(BuildContext& ctx) { new_segment(ctx); }

void host_sync(BuildContext& ctx, int microbatch) {
  const HostCosts& host = ctx.host;
  if (!host.any()) return;
  const auto [device, launches] = segment_work(ctx, 0);
  add_host_task(ctx, exposed_segment_time(host, device, launches), microbatch);
  new_segment(ctx);
}

void end_pass(BuildContext& ctx, int trailing_launches, int instructions, int microbatch) {
  const HostCosts& host = ctx.host;
  if (!host.any()) return;
  const auto [device, launches] = segment_work(ctx, trailing_launches);
  add_host_task(ctx, exposed_host_time(host, device, launches, instructions), microbatch);
}

}  // namespace trainsim
