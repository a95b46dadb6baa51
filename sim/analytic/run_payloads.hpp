// The sizes one device's collectives move, derived once from a run (as the graph builder sizes
// its tasks, sim/graph/builder.cpp set_payload_sizes). Part of the formulas' input extraction.
#pragma once
#include "sim/config/run_spec.hpp"
#include "sim/core/units.hpp"

namespace trainsim {

struct Payloads {
  Bytes tp = 0, cp_kv = 0, ep = 0, pp = 0, grad_element = 0, param_element = 0;
};

[[nodiscard]] Payloads payloads(const RunSpec& run);

}  // namespace trainsim
