// The sizes one device's collectives move, derived once from a run (as the graph builder sizes
// its tasks, sim/graph/builder.cpp set_payload_sizes). Part of the formulas' input extraction.
#pragma once
#include "sim/config/run_spec.hpp"
#include "sim/core/units.hpp"

namespace trainsim {

struct Payloads {
  Bytes tp = 0;             // b·s·h activation: a TP all-reduce / reduce-scatter buffer (16 bit)
  Bytes tp_gather = 0;      // the same tensor as a sequence-parallel all-gather moves it: in FP8 in
                            // 8-bit runs (TE casts before it gathers), else = tp
  Bytes cp_kv = 0;          // K and V of the whole context on this device (gathered over cp)
  Bytes ep = 0;             // tokens one device sends in an all-to-all (dispatch or combine)
  Bytes pp = 0;             // one activation (or its gradient) crossing a stage boundary
  Bytes grad_element = 0;   // bytes per gradient element in the DP reduction
  Bytes param_element = 0;  // bytes per parameter in ZeRO all-gathers (1 with fp8.param_gather)
};

[[nodiscard]] Payloads payloads(const RunSpec& run);

}  // namespace trainsim
