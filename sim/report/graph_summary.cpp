#include "sim/report/graph_summary.hpp"

#include <array>
#include <cstdio>
#include <map>

namespace trainsim {

void write_graph_summary(std::ostream& out, const StageGraph& graph) {
  struct Totals {
    std::array<long, 4> count{};  // per TaskKind
    double flops = 0, bytes = 0, seconds = 0;
  };
  std::array<Totals, kStreams> per;
  for (size_t t = 0; t < graph.size(); ++t) {
    const Task& task = graph.task(static_cast<TaskId>(t));
    Totals& s = per[static_cast<size_t>(task.stream)];
    s.count[static_cast<size_t>(task.kind)]++;
    s.flops += task.flops;
    s.bytes += task.bytes;
    s.seconds += task.duration;
  }
  out << "stream      compute  collective   send   recv        TFLOP       GB moved   kernel s\n";
  for (int s = 0; s < kStreams; ++s) {
    const Totals& t = per[static_cast<size_t>(s)];
    char line[200];
    std::snprintf(line, sizeof line, "%-10s %8ld %11ld %6ld %6ld %12.3f %14.3f %10.4f\n", to_string(Stream(s)),
                  t.count[0], t.count[1], t.count[2], t.count[3], t.flops / 1e12, t.bytes / 1e9, t.seconds);
    out << line;
  }
  std::map<std::string, long> by_label;
  for (size_t t = 0; t < graph.size(); ++t) by_label[graph.label_text(graph.task(static_cast<TaskId>(t)).label)]++;
  out << "tasks by name:";
  int col = 0;
  for (const auto& [name, n] : by_label) out << (col++ % 4 == 0 ? "\n  " : "  ") << name << " ×" << n;
  out << "\n";
}

void write_dot(std::ostream& out, const StageGraph& graph, int microbatch) {
  auto keep = [&](TaskId t) {
    const int mb = graph.task(t).microbatch;
    return mb == microbatch || mb < 0;
  };
  out << "digraph stage" << graph.stage() << " {\n  rankdir=LR;\n  node [shape=box, fontsize=10];\n";
  for (int s = 0; s < kStreams; ++s) {
    const auto& order = graph.order(Stream(s));
    out << "  subgraph cluster_" << to_string(Stream(s)) << " {\n    label=\"" << to_string(Stream(s)) << "\";\n";
    int64_t prev = -1;
    for (TaskId t : order) {
      if (!keep(t)) continue;
      const Task& task = graph.task(t);
      out << "    t" << t << " [label=\"" << graph.label_text(task.label);
      if (task.layer >= 0) out << "\\nlayer " << task.layer;
      out << "\"];\n";
      if (prev >= 0) out << "    t" << prev << " -> t" << t << ";\n";
      prev = t;
    }
    out << "  }\n";
  }
  const TaskDag& dag = graph.dag();
  for (auto [e, end] = boost::edges(dag); e != end; ++e) {
    const auto a = static_cast<TaskId>(boost::source(*e, dag)), b = static_cast<TaskId>(boost::target(*e, dag));
    if (keep(a) && keep(b) && dag[a].stream != dag[b].stream) out << "  t" << a << " -> t" << b << " [style=dashed];\n";
  }
  out << "}\n";
}

}  // namespace trainsim
