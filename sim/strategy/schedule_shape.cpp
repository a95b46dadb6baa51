// Closed forms of the registered pipeline schedules (see schedule_shape.hpp). Sources:
//  - GPipe (Huang et al. 2019, Fig. 2c): all m forwards first, so it holds m micro-batches; idle
//    (p-1)(F+B) per stage.
//  - 1F1B (Narayanan et al. SC'21 §2.2.1): stage s runs min(p-s-1, m) warm-up forwards and holds
//    min(p-s, m) micro-batches; idle (p-1)(F+B), bubble fraction (p-1)/m.
//  - interleaved 1F1B (Narayanan et al. SC'21 §2.2.2, Megatron-LM's warm-up count): stage s runs
//    min(2(p-s-1) + (v-1)p, m v) warm-up forwards; idle (p-1)(F+B) with per-chunk F, B, i.e. the
//    bubble fraction (p-1)/(v m). Megatron-Core's combined 1F1B (EP overlap) adds one warm-up forward
//    (PipelineShape::extra_warmup), which leaves the bubble as it is and holds one more unit.
//  - ZB-H1 (Qi et al. ICLR 2024, Table 2): the 1F1B order of F and B, so the same warm-up and peak;
//    W passes fill the cool-down: idle (p-1)(F+Bi-W) once m >= p. With fewer micro-batches only
//    m-1 W passes can move into the cool-down: idle (p-1)(F+Bi) - (min(m,p)-1) W.
#include "sim/strategy/schedule_shape.hpp"

#include <algorithm>

#include "sim/core/error.hpp"
#include "sim/strategy/ep_overlap.hpp"

namespace trainsim {
namespace {

int one_f_one_b_warmup(const PipelineShape& s, int stage) { return std::min(s.stages - stage - 1, s.microbatches); }

int gpipe_warmup(const PipelineShape& s, int) { return s.microbatches; }

int interleaved_warmup(const PipelineShape& s, int stage) {
  if (s.virtual_stages == 1) return one_f_one_b_warmup(s, stage);
  const int total = s.microbatches * s.virtual_stages;
  return std::min(2 * (s.stages - stage - 1) + (s.virtual_stages - 1) * s.stages + s.extra_warmup, total);
}

// After the warm-up every schedule of the 1F1B family runs one more forward before its first
// backward (unless the warm-up already ran them all).
int one_more(int warmup, const PipelineShape& s) { return std::min(warmup + 1, s.microbatches * s.virtual_stages); }

int gpipe_peak(const PipelineShape& s, int) { return s.microbatches; }
int one_f_one_b_peak(const PipelineShape& s, int stage) { return one_more(one_f_one_b_warmup(s, stage), s); }
int interleaved_peak(const PipelineShape& s, int stage) { return one_more(interleaved_warmup(s, stage), s); }

int whole_stage_peak_1f1b(const PipelineShape& s, int stage, int) { return one_f_one_b_peak(s, stage); }
int whole_stage_peak_gpipe(const PipelineShape& s, int stage, int) { return gpipe_peak(s, stage); }

// Interleaved 1F1B in Megatron-LM's order (as sim/graph/schedules/interleaved.cpp runs it): the k-th
// forward runs chunk (k mod pv) / p, the j-th backward chunk v-1 - (j mod pv) / p; after the warm-up
// each forward W+i is followed by backward i. Chunk c's units in flight after forward W+i are the
// forwards of c up to W+i minus the backwards of c before i; the pattern repeats every pv steps, so
// two periods past the warm-up find the maximum.
int interleaved_chunk_peak(const PipelineShape& s, int stage, int chunk) {
  const int p = s.stages, v = s.virtual_stages, total = s.microbatches * v;
  if (v == 1) return one_f_one_b_peak(s, stage);
  const int warmup = interleaved_warmup(s, stage);
  auto forward_chunk = [&](int k) { return (k % (p * v)) / p; };
  auto backward_chunk = [&](int j) { return v - 1 - (j % (p * v)) / p; };
  int held = 0, most = 0, backwards = 0;
  for (int k = 0; k < std::min(warmup, total); ++k) held += forward_chunk(k) == chunk ? 1 : 0;
  most = held;
  for (int i = 0; warmup + i < total && i < 2 * p * v; ++i) {
    held += forward_chunk(warmup + i) == chunk ? 1 : 0;
    most = std::max(most, held);
    held -= backward_chunk(backwards++) == chunk ? 1 : 0;
  }
  return most;
}

double flush_bubble(const PipelineShape& s, const ChunkPassTimes& t) {
  return (s.stages - 1) * (t.forward + t.backward_input + t.weight_grad);
}

// Every registered schedule runs a micro-batch's chunks in order around the stages: 2(pv-1) hops,
// 2(p-1) without chunks; one stage keeps its chunks' activations on the device, no hop at all.
int chunk_boundary_hops(const PipelineShape& s) { return s.stages > 1 ? 2 * (s.stages * s.virtual_stages - 1) : 0; }
constexpr const char* kChunkBoundaryHops = "2*(p*v - 1)";

double zb_h1_bubble(const PipelineShape& s, const ChunkPassTimes& t) {
  const int deferred = std::min(s.microbatches, s.stages) - 1;
  return (s.stages - 1) * (t.forward + t.backward_input) - deferred * t.weight_grad;
}

}  // namespace

PipelineShape pipeline_shape(const RunSpec& run) {
  const auto& s = run.strategy;
  PipelineShape shape{s.pp, run.microbatches(), s.virtual_stages};
  shape.extra_warmup = s.pp > 1 && merges_ep_passes(run) ? 1 : 0;
  return shape;
}

const std::vector<ScheduleClosedForm>& schedule_closed_forms() {
  static const std::vector<ScheduleClosedForm> all = {
      {"1f1b", one_f_one_b_warmup, one_f_one_b_peak, whole_stage_peak_1f1b, flush_bubble, "(p - 1)*(F + Bi + W)",
       chunk_boundary_hops, kChunkBoundaryHops},
      {"gpipe", gpipe_warmup, gpipe_peak, whole_stage_peak_gpipe, flush_bubble, "(p - 1)*(F + Bi + W)",
       chunk_boundary_hops, kChunkBoundaryHops},
      {"interleaved", interleaved_warmup, interleaved_peak, interleaved_chunk_peak, flush_bubble, "(p - 1)*(F + Bi + W)",
       chunk_boundary_hops, kChunkBoundaryHops},
      {"zb-h1", one_f_one_b_warmup, one_f_one_b_peak, whole_stage_peak_1f1b, zb_h1_bubble,
       "(p - 1)*(F + Bi) - (Min(m, p) - 1)*W", chunk_boundary_hops, kChunkBoundaryHops, true},
  };
  return all;
}

const ScheduleClosedForm& find_schedule_closed_form(const std::string& name) {
  std::string names;
  for (const ScheduleClosedForm& f : schedule_closed_forms()) {
    if (f.name == name) return f;
    names += (names.empty() ? "" : ", ") + f.name;
  }
  throw UserError("pipeline schedule '" + name + "' has no closed form; valid: " + names);
}

}  // namespace trainsim
