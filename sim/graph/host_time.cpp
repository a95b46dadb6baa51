#include "sim/graph/host_time.hpp"

namespace trainsim {

PassStart begin_pass(const BuildContext& ctx) { return PassStart{ctx.graph.size()}; }

void end_pass(BuildContext& ctx, PassStart start, int trailing_launches, int instructions, int microbatch) {
  const HostCosts& host = ctx.run.framework.host;
  if (!host.any()) return;
  Seconds device = 0;
  const size_t end = ctx.graph.size();
  for (size_t id = start.first_task; id < end; ++id) {
    const Task& t = ctx.graph.task(static_cast<TaskId>(id));
    if (t.kind == TaskKind::kCompute) device += t.duration;
  }
  const int launches = static_cast<int>(end - start.first_task) + trailing_launches;
  const Seconds exposed = exposed_host_time(host, device, launches, instructions);
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

}  // namespace trainsim
