// One task of a device's task graph: a compute kernel, a collective on a process group, or a
// pipeline send/receive. Tasks on one stream run in order; tasks on different streams overlap,
// subject to the graph's dependency edges.
#pragma once
#include <cstdint>

#include "sim/collective/plan.hpp"
#include "sim/core/units.hpp"
#include "sim/model/kernel.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {

enum class Stream : uint8_t { kCompute, kTp, kCp, kEp, kDp, kPpSend, kPpRecv };
constexpr int kStreams = 7;
[[nodiscard]] const char* to_string(Stream s);

enum class TaskKind : uint8_t { kCompute, kCollective, kSend, kRecv };
[[nodiscard]] const char* to_string(TaskKind k);

// Which pass a task belongs to, for the breakdown (compute vs recompute vs optimizer; kHost: the
// device waiting for the host to issue work, sim/graph/host_time.hpp).
enum class TaskRole : uint8_t { kForward, kBackward, kRecompute, kOptimizer, kHost, kOther };

struct Task {
  TaskKind kind = TaskKind::kCompute;
  Stream stream = Stream::kCompute;
  TaskRole role = TaskRole::kOther;
  KernelClass kernel_class = KernelClass::kElementwise;  // compute only
  CollectiveKind collective = CollectiveKind::kAllReduce;  // collective only
  Dim group = Dim::kTp;            // collective only: the mesh dimension of its process group
  int8_t peer_offset = 0;          // send/recv only: +1 next stage, -1 previous stage
  bool pipelined = false;          // collective only: begun with the GEMM it is pipelined with (fused
                                   // GEMM + collective under overlap.tp_comm), which the next kernel waits for
  uint32_t label = 0;              // index into StageGraph::labels ("qkv_proj.fwd", "dp.grad_bucket")
  int32_t microbatch = -1;         // -1 when not tied to a micro-batch
  int16_t layer = -1;              // global layer index, -1 when not tied to a layer
  int16_t chunk = 0;               // virtual pipeline chunk on this stage
  Flops flops = 0;                 // compute: FLOP executed
  Bytes bytes = 0;                 // compute: HBM bytes; collective: buffer per member; p2p: payload
  Seconds duration = 0;            // compute: time on an idle device (roofline + overhead), seconds
};

}  // namespace trainsim
