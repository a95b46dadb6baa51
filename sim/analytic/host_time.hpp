// Host time a pass adds beyond its device time (the framework's host costs,
// sim/config/framework_spec.hpp), the one formula the graph builder (sim/graph/host_time) and the
// iteration formulas (stage_compute) share. A pass (the forward, or the backward, of one micro-batch
// through one model chunk) issues its launches in order (one with CUDA graphs) and runs
// `instructions` instructions of a pipeline engine: host = pass + instructions · pipeline_instruction +
// calls · launch + library · library_launch, all of it exposed with blocking launches; with
// asynchronous ones, the time the device waits for launches in between its kernels (IssueSpan).
#pragma once
#include <vector>

#include <boost/container/small_vector.hpp>

#include "sim/config/framework_spec.hpp"
#include "sim/config/platform_spec.hpp"
#include "sim/config/run_spec.hpp"

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

// How one stream's kernels meet the host that issues them, from an empty device queue (a pass's
// start, where the framework has synchronised on the pipeline transfer, or the host's return from a
// synchronisation): the host issues launch after launch, and a kernel starts once it is
// issued and the kernel before it has ended (CUDA's in-order stream). With H_j the host seconds to
// issue kernels 1..j and D_j the device seconds of kernels 1..j, the last kernel ends at
// max_j (H_j − D_{j−1}) + D_n: the device idles max_j (H_j − D_{j−1}), at least the first launch.
// Collectives and pipeline transfers are launches of no compute-stream time here.
struct IssueSpan {
  Seconds host = 0;    // host seconds to issue the span's launches
  Seconds device = 0;  // device seconds of its kernels
  Seconds idle = 0;    // device seconds spent waiting for the host, from an empty queue
  // This span, then `next` issued right after it: idle = max(idle, host − device + next.idle).
  [[nodiscard]] IssueSpan then(const IssueSpan& next) const;
};

// One catalogue entry (a kernel, collective or transfer) of `device` seconds that makes `launches`
// launches: as that many kernels of equal device time, each issued after the one before, the
// framework's calls first (HostCosts::launch each), then the launches a library makes inside the call
// (library_launch each): a grouped GEMM run per expert, an eager per-expert loop. Under CUDA graphs it
// costs the host nothing (the pass's one launch is exposed_host_time's).
[[nodiscard]] IssueSpan issue_span(const HostCosts& host, const Launches& launches, Seconds device);

// A pass's launches split at its host synchronisations (FrameworkMoe): one span per segment, in
// issue order. Each segment after a synchronisation starts from an empty device queue; the first
// does too where the pass begins at one (pass_starts_empty), else the host may bring a lead from the
// passes before: that segment exposes only what its launches take beyond its device time.
struct IssueSegments {
  // Most passes have one segment, a few one per MoE layer: two spans live inline, without a heap
  // allocation (the search combines these per block of every strategy it extracts).
  boost::container::small_vector<IssueSpan, 2> spans{IssueSpan{}};
  bool lead_carried = false;  // the first segment continues from earlier passes (no synchronisation)
  void add(const IssueSpan& next) { spans.back() = spans.back().then(next); }
  void sync() { spans.emplace_back(); }  // the host waits for the device: a new segment begins
  // These launches, then `next`'s: its first segment continues our last.
  [[nodiscard]] IssueSegments then(const IssueSegments& next) const;
};

// The host time a segment of a pass adds to its device time (a host synchronisation, FrameworkMoe::
// dispatch_sync, closes it): all of `span`'s host time with blocking launches; with asynchronous ones
// the device's idle time, or only what its launches take beyond its device time where `lead_carried`
// (the segment began without a synchronisation, see IssueSegments); nothing under CUDA graphs.
[[nodiscard]] Seconds exposed_segment_time(const HostCosts& host, const IssueSpan& span, bool lead_carried);
// The host time a pass adds to its device time: its pass and instruction costs, issued before its
// first launch, then each of `segments`' (with CUDA graphs, the graph's one launch).
[[nodiscard]] Seconds exposed_host_time(const HostCosts& host, const IssueSegments& segments, int instructions);

// Whether a pass starts from an empty device queue: the pipeline transfer before it made the host wait
// for the device (Megatron-Core's batched p2p, followed by torch.cuda.synchronize() under
// batch_p2p_sync, its default: pipeline_parallel/p2p_communication.py, _communicate), i.e. pp > 1 without
// overlapped transfers. Overlapped transfers (the interleaved schedule's overlap_p2p_comm) are waited for
// on the device, and without a pipeline nothing synchronises between micro-batches. In the plain 1F1B
// schedule the first stage's steady forward follows its own backward, which sends nothing
// (send_backward_recv_forward is a no-op there), and the last stage's backward follows its own forward
// (send_forward_recv_backward likewise): those passes keep the host's lead.
[[nodiscard]] bool pass_starts_empty(const RunSpec& run, bool first_stage, bool last_stage, bool backward);

// Instructions of a pipeline engine for one pass (DeepSpeed's TrainSchedule): the pass itself, the
// receive of its input or the loading of the micro-batch (the first stage loads inputs, the last
// also labels), and the send of its output. `first`/`last`: the chunk holds the embedding / output.
[[nodiscard]] int forward_instructions(bool first, bool last);
[[nodiscard]] int backward_instructions(bool first, bool last);

}  // namespace trainsim
