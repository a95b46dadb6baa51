// The task graph of one pipeline stage: a template shared by every device on that stage.
// Devices on the same stage run the same work with different peers, so the builder makes one
// StageGraph per stage and the replay resolves peers through the Mesh; memory stays small at
// 16,384 devices. Tasks on one stream run in `order`; edges are the extra cross-stream
// dependencies (an edge u→v means v may start only after u has finished).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "sim/graph/task.hpp"

namespace trainsim {

using TaskDag = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Task>;
using TaskId = uint32_t;

class StageGraph {
 public:
  explicit StageGraph(int stage) : stage_(stage) {}

  int stage() const { return stage_; }
  // Appends `task` to the end of its stream and adds an edge from each of `deps`.
  TaskId add(const Task& task, std::initializer_list<TaskId> deps = {});
  void add_dependency(TaskId from, TaskId to);
  // Interns a label ("qkv_proj.fwd") and returns its index for Task::label.
  uint32_t label(const std::string& text);

  const Task& task(TaskId id) const { return dag_[id]; }
  Task& mutable_task(TaskId id) { return dag_[id]; }
  size_t size() const { return boost::num_vertices(dag_); }
  const std::vector<TaskId>& order(Stream s) const { return order_[static_cast<int>(s)]; }
  const std::string& label_text(uint32_t index) const { return labels_[index]; }
  const TaskDag& dag() const { return dag_; }
  // The last task added to a stream, or -1 if it is empty.
  int64_t last_on(Stream s) const;

 private:
  int stage_;
  TaskDag dag_;
  std::array<std::vector<TaskId>, kStreams> order_;
  std::vector<std::string> labels_;
  std::unordered_map<std::string, uint32_t> label_index_;
};

}  // namespace trainsim
