#include "sim/graph/build_context.hpp"

namespace trainsim {

TaskId add_compute(BuildContext& ctx, Task task, bool wgrad) {
  const TaskId id = ctx.graph.add(task);
  if (!wgrad || !ctx.run.strategy.overlap.tp_grad_reduce) {
    for (TaskId dep : ctx.pending) {
      ctx.graph.add_dependency(dep, id);
      const Task& d = ctx.graph.task(dep);
      if (ctx.comm && dep >= ctx.host_segment_start && d.kind == TaskKind::kCollective && d.group == Dim::kEp)
        ctx.host_waits.push_back(dep);
    }
    ctx.pending.clear();
  }
  return id;
}

TaskId add_comm_after_compute(BuildContext& ctx, Task task) {
  const int64_t last = ctx.graph.last_on(Stream::kCompute);
  const TaskId id = ctx.graph.add(task);
  if (last >= 0) ctx.graph.add_dependency(static_cast<TaskId>(last), id);
  return id;
}

Task collective_task(BuildContext& ctx, const char* label, CollectiveKind kind, Dim dim, Bytes bytes, TaskRole role,
                     int microbatch, int layer) {
  Task t;
  t.kind = TaskKind::kCollective;
  switch (dim) {
    case Dim::kTp: t.stream = Stream::kTp; break;
    case Dim::kCp: t.stream = Stream::kCp; break;
    case Dim::kEp: t.stream = Stream::kEp; break;
    default: t.stream = Stream::kDp; break;
  }
  t.role = role;
  t.collective = kind;
  t.group = dim;
  t.bytes = bytes;
  t.label = ctx.graph.label(label);
  t.microbatch = microbatch;
  t.layer = static_cast<int16_t>(layer);
  return t;
}

}  // namespace trainsim
