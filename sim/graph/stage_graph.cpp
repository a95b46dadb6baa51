#include "sim/graph/stage_graph.hpp"

namespace trainsim {

TaskId StageGraph::add(const Task& task, std::initializer_list<TaskId> deps) {
  const auto v = static_cast<TaskId>(boost::add_vertex(task, dag_));
  order_[static_cast<int>(task.stream)].push_back(v);
  for (TaskId d : deps) add_dependency(d, v);
  return v;
}

void StageGraph::add_dependency(TaskId from, TaskId to) {
  if (from == to) return;
  boost::add_edge(from, to, dag_);
}

uint32_t StageGraph::label(const std::string& text) {
  auto it = label_index_.find(text);
  if (it != label_index_.end()) return it->second;
  const auto index = static_cast<uint32_t>(labels_.size());
  labels_.push_back(text);
  label_index_.emplace(text, index);
  return index;
}

int64_t StageGraph::last_on(Stream s) const {
  const auto& o = order_[static_cast<int>(s)];
  return o.empty() ? -1 : static_cast<int64_t>(o.back());
}

}  // namespace trainsim
