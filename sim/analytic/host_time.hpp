// Host time a pass adds beyond its device time (the framework's host costs,
// sim/config/framework_spec.hpp), the one formula the graph builder (sim/graph/host_time) and the
// iteration formulas (pass_times) share. A pass (the forward, or the backward, of one micro-batch
// through one model chunk) issues `launches` launches (one with CUDA graphs) and runs
// `instructions` instructions of a pipeline engine:
//   host = pass + instructions · pipeline_instruction + calls · launch + library · library_launch,
// all of it exposed with blocking launches, max(0, host − device) with asynchronous ones.
#pragma once
#include "sim/config/framework_spec.hpp"
#include "sim/config/platform_spec.hpp"

namespace trainsim {

// Launches of a pass or segment: `calls` of trainsim's catalogue (kernels, collectives, pipeline
// transfers; each pays HostCosts::launch) and the `library` launches some of them make beyond their
// first (a grouped GEMM run per expert, a quantization per expert; each pays library_launch_cost).
struct Launches {
  int calls = 0;
  int library = 0;
  Launches& operator+=(const Launches& o) {
    calls += o.calls;
    library += o.library;
    return *this;
  }
  [[nodiscard]] Launches operator+(const Launches& o) const { return {calls + o.calls, library + o.library}; }
  [[nodiscard]] Launches operator-(const Launches& o) const { return {calls - o.calls, library - o.library}; }
};

// The framework's host costs on `platform`'s host: each multiplied by PlatformSpec::host_slowdown.
[[nodiscard]] HostCosts host_costs_on(const HostCosts& framework, const PlatformSpec& platform);

// Host seconds to issue `n`: calls · launch + library · library_launch_cost (one launch with CUDA graphs).
[[nodiscard]] Seconds launch_seconds(const HostCosts& host, const Launches& n);

[[nodiscard]] Seconds exposed_host_time(const HostCosts& host, Seconds device, const Launches& launches,
                                        int instructions);
// The same for a segment of a pass that a host synchronisation closes (FrameworkMoe::dispatch_sync):
// launches only (the pass and instruction costs belong to the pass), max(0, host − device) or all of
// it with blocking launches. A pass with syncs takes the sum over its segments, not the max of sums.
[[nodiscard]] Seconds exposed_segment_time(const HostCosts& host, Seconds device, const Launches& launches);

// Instructions of a pipeline engine for one pass (DeepSpeed's TrainSchedule): the pass itself, the
// receive of its input or the loading of the micro-batch (the first stage loads inputs, the last
// also labels), and the send of its output. `first`/`last`: the chunk holds the embedding / output.
[[nodiscard]] int forward_instructions(bool first, bool last);
[[nodiscard]] int backward_instructions(bool first, bool last);

}  // namespace trainsim
