// A trace at layer granularity: the kernels (and collectives) one device stream runs back to back
// for one layer of one micro-batch become one slice, so a 64-device iteration is a file people can
// open. Pure function of the events.
#pragma once
#include <string>
#include <vector>

#include "sim/replay/timeline.hpp"

namespace trainsim {

// The pass a task label names, from its last dot-separated part: "fwd" for forward kernels
// ("qkv_proj.fwd", also when recomputed), "bwd" for dgrad/wgrad/bwd kernels, "" for anything else
// (collectives, transfers, the optimizer step).
[[nodiscard]] std::string pass_of(const std::string& label);

// `events` ordered by track (rank, then stream) and start; with `by_layer`, each run of consecutive
// events of one track with the same layer (>= 0) and micro-batch becomes one event spanning the first
// start to the last end, named "layer <L> <what>": fwd, bwd, fwd+bwd (a recompute, or a forward,
// right before its backward), or the stream's name for collectives. Events not tied to a layer stay.
// `tasks[i]` is how many events the i-th result stands for.
[[nodiscard]] std::vector<TraceEvent> trace_slices(const std::vector<TraceEvent>& events, bool by_layer,
                                                   std::vector<int>* tasks);

}  // namespace trainsim
