// What a replay produced: per-device time accounting, optional per-task trace events and
// per-link statistics. Plain data (no SimGrid types), so report/ can consume it anywhere.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/units.hpp"
#include "sim/graph/task.hpp"

namespace trainsim {

// Where a device's iteration time went, from the compute stream's point of view. The
// categories add up to the iteration time of the slowest device.
enum class TimeCategory : uint8_t {
  kForward,      // forward kernels
  kBackward,     // backward kernels (input and weight gradients)
  kRecompute,    // forward kernels re-run before backward
  kOptimizer,    // optimizer step
  kExposedTp,    // compute idle, waiting on a TP collective
  kExposedCp,    // ... on a CP exchange
  kExposedEp,    // ... on an EP all-to-all
  kExposedDp,    // ... on a DP / ZeRO collective
  kBubble,       // compute idle, waiting on an activation/gradient another stage has not sent yet
  kExposedPp,    // compute idle, waiting on a pipeline transfer whose bytes are moving (or, without
                 // pp_comm overlap, on its own send)
  kHost,         // compute stream waiting for the host to issue work (framework host time)
  kIdle,         // finished its own work, waiting for the slowest device
};
constexpr int kTimeCategories = 12;
[[nodiscard]] const char* to_string(TimeCategory c);

struct DeviceTimeline {
  int rank = 0;
  int stage = 0;
  Seconds end = 0;                                  // when its last task finished, seconds
  std::array<Seconds, kTimeCategories> time{};      // seconds per category
  std::array<Bytes, kStreams> bytes_sent{};         // payload bytes this device sent, per stream
};

struct TraceEvent {
  int rank = 0;
  Stream stream = Stream::kCompute;
  std::string name;          // "qkv_proj.fwd", "tp.all_reduce"
  int microbatch = -1;
  int layer = -1;
  Seconds start = 0, end = 0;
};

struct LinkStat {
  std::string name;          // SimGrid link name
  std::string tier;          // tier it belongs to ("nvlink", "ib")
  BytesPerSecond bandwidth = 0;
  Bytes bytes = 0;           // carried during the iteration
  double busy_fraction = 0;  // bytes / (bandwidth * iteration time)
};

struct Timeline {
  Seconds iteration_time = 0;            // makespan of the iteration, seconds
  std::vector<DeviceTimeline> devices;   // the devices that were replayed (folded runs: a subset)
  int devices_total = 0;                 // devices in the run
  bool folded = false;                   // replicas folded (see ReplayOptions)
  std::string fold_note;                 // why folding was declined (sim/replay/fold_plan.hpp), or ""
  std::vector<TraceEvent> trace;         // only for the traced devices
  std::vector<LinkStat> links;           // only when asked for
  uint64_t tasks_executed = 0;
  // Times a device's actor waited for SimGrid (a flow, a message or a date): the replay's cost
  // grows with them (device_loop.cpp, kernel_chain.hpp).
  uint64_t wakeups = 0;
};

}  // namespace trainsim
