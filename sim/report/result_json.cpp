#include "sim/report/json_writer.hpp"
#include "sim/report/summary.hpp"

namespace trainsim {
namespace {

void write_strategy(JsonWriter& w, const RunSpec& run) {
  const auto& s = run.strategy;
  w.key("strategy").begin_object().field("tp", s.tp).field("pp", s.pp).field("dp", s.dp).field("cp", s.cp);
  w.field("ep", s.ep).field("sequence_parallel", s.sequence_parallel).field("schedule", s.schedule);
  w.field("virtual_stages", s.virtual_stages).field("zero_stage", s.zero_stage).end_object();
}

void write_memory(JsonWriter& w, const std::vector<DeviceMemory>& memory) {
  w.key("memory_per_stage").begin_array();
  for (const auto& d : memory) {
    w.begin_object().field("stage", d.stage).field("weights", d.weights).field("gradients", d.gradients);
    w.field("optimizer", d.optimizer).field("activations", d.activations).field("comm_buffers", d.comm_buffers);
    w.field("framework", d.framework).field("total", d.total()).field("peak_in_flight", d.peak_in_flight);
    w.end_object();
  }
  w.end_array();
}

}  // namespace

void write_result_json(std::ostream& out, const SimulationReport& r) {
  const RunMetrics& m = r.metrics;
  JsonWriter w(out);
  w.begin_object().field("run", r.run.name).field("model", r.run.model.name).field("platform", r.run.platform.name);
  w.field("devices", r.run.devices).field("devices_replayed", m.devices_replayed).field("folded", r.timeline.folded);
  w.field("fold_data_parallel", r.timeline.folded && r.options.fold_data_parallel)
      .field("fold_tensor_parallel", r.timeline.folded && r.options.fold_tensor_parallel)
      .field("fold_note", r.timeline.fold_note);
  w.field("collective_mode", r.options.collectives == CollectiveMode::kStep ? "step" : "bulk");
  write_strategy(w, r.run);
  w.field("iteration_time_s", m.iteration_time).field("tokens_per_s", m.tokens_per_s);
  w.field("model_flops_per_iteration", m.model_flops).field("narayanan_flops_per_iteration", m.narayanan_flops);
  w.field("tflops_per_device", m.tflops_per_device).field("mfu", m.mfu);
  w.field("peak_memory_bytes", peak_memory(r.memory).total());
  w.field("memory_capacity_bytes", r.run.platform.accelerator.memory_capacity);
  w.key("uncalibrated_parameters").begin_object();
  for (const auto& u : r.run.platform.uncalibrated) w.field(u.key, u.value);
  w.end_object();
  w.key("breakdown").begin_object();
  for (int c = 0; c < kTimeCategories; ++c) w.field(to_string(TimeCategory(c)), m.breakdown[static_cast<size_t>(c)]);
  w.end_object();
  write_memory(w, r.memory);
  w.key("per_device").begin_array();
  for (const auto& d : r.timeline.devices) {
    w.begin_object().field("rank", d.rank).field("stage", d.stage).field("end_s", d.end);
    for (int c = 0; c < kTimeCategories; ++c) w.field(to_string(TimeCategory(c)), d.time[static_cast<size_t>(c)]);
    w.end_object();
  }
  w.end_array().end_object();
}

}  // namespace trainsim
