// Pipeline schedules in closed form: for each registered schedule (sim/graph/schedules/), how many
// forwards a stage runs before its first backward (warm-up depth), how many (micro-batch, chunk)
// activation units it holds at its peak, and how long each stage idles (its bubble) when every
// stage takes the same time per pass. These are properties of the strategy, not of the task graph:
// the memory model and the iteration formulas use them without expanding any step, and the graph
// tests check each closed form against its schedule's expanded steps (tests/graph/schedule_shape_test).
// A schedule added to sim/graph/schedules/ adds its closed form to the table in schedule_shape.cpp.
#pragma once
#include <string>
#include <vector>

#include "sim/config/run_spec.hpp"

namespace trainsim {

struct PipelineShape {
  int stages = 1;          // p
  int microbatches = 1;    // m
  int virtual_stages = 1;  // v: model chunks per stage
  // Forwards an interleaved stage runs in its warm-up beyond the schedule's own count: Megatron-Core's
  // combined 1F1B with virtual stages runs one more (sim/strategy/ep_overlap.hpp); 0 otherwise.
  int extra_warmup = 0;
};

// A run's pipeline shape: its p, m and v, and the warm-up forward combined 1F1B adds when pipelined
// (strategy.overlap.ep_comm, sim/strategy/ep_overlap.hpp).
[[nodiscard]] PipelineShape pipeline_shape(const RunSpec& run);

// Time of one pass of one micro-batch through one model chunk on one stage, seconds.
struct ChunkPassTimes {
  double forward = 0;         // F
  double backward_input = 0;  // Bi (input gradients); an unsplit backward takes Bi + W
  double weight_grad = 0;     // W (weight gradients)
};

struct ScheduleClosedForm {
  std::string name;  // as registered in sim/graph (find_schedule)
  // Forwards stage `stage` runs before its first backward (capped at m*v).
  int (*warmup_forwards)(const PipelineShape&, int stage) = nullptr;
  // Max over the stage's step prefixes of (#F - #B): activation units held at the peak.
  int (*peak_in_flight)(const PipelineShape&, int stage) = nullptr;
  // The same for the units of one local chunk only (what the embedding's chunk 0 and the output
  // layer's chunk v-1 hold); equals peak_in_flight without virtual stages.
  int (*chunk_peak_in_flight)(const PipelineShape&, int stage, int chunk) = nullptr;
  // Idle time of every stage (the bubble) when all stages take `t` per chunk pass and messages
  // are free: makespan - m*v*(F + Bi + W). Seconds.
  double (*bubble)(const PipelineShape&, const ChunkPassTimes& t) = nullptr;
  // The same bubble in SymPy syntax, in the symbols p, m, v, F, Bi, W.
  std::string bubble_sympy;
  // Pipeline hops the fill and drain wait for when each message between stages takes a latency L
  // and is delivered while both stages compute (asynchronous p2p): the makespan grows by hops x L.
  // A micro-batch's first forward crosses every boundary between consecutive model chunks, and its
  // last backward crosses them back: 2(p-1) without chunks, 2(pv-1) with v chunks per stage (the
  // hops from stage p-1 back to stage 0 between chunks included); none with one stage.
  int (*fill_drain_hops)(const PipelineShape&) = nullptr;
  std::string hops_sympy;  // the same in the symbols p, v
  // The last weight gradients run in passes of their own after the stage's last input gradient went
  // back (zb-h1), so what completes them does not hold up the pipeline's drain.
  bool weight_grads_off_drain = false;
};

// Every schedule with a closed form, sorted by name.
[[nodiscard]] const std::vector<ScheduleClosedForm>& schedule_closed_forms();
// Throws UserError naming the valid schedules when `name` has no closed form.
[[nodiscard]] const ScheduleClosedForm& find_schedule_closed_form(const std::string& name);

}  // namespace trainsim
