// Run-time state of a replay: one DeviceRuntime per replayed device, and the context shared by
// all of them. Only sim/replay/ sees this (it holds SimGrid types).
#pragma once
#include <array>
#include <exception>
#include <map>
#include <unordered_map>
#include <memory>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/config/run_spec.hpp"
#include "sim/graph/run_graph.hpp"
#include "sim/platform/build.hpp"
#include "sim/replay/collective_cache.hpp"
#include "sim/replay/collective_choice.hpp"
#include "sim/replay/compiled_stage.hpp"
#include "sim/replay/device_kernel.hpp"
#include "sim/replay/interference.hpp"
#include "sim/replay/options.hpp"
#include "sim/replay/pair_shortcut.hpp"
#include "sim/replay/progress.hpp"
#include "sim/replay/switch_proxy.hpp"
#include "sim/replay/timeline.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {

// The routes between a device and the switch of one tier: latency (s) and bottleneck bandwidth
// (bytes/s) each way, as SimGrid routes them (switch_shortcut.hpp).
struct SwitchRoute {
  bool known = false;
  double up_latency = 0, up_bandwidth = 0, down_latency = 0, down_bandwidth = 0;
};

// The routes between a device and one peer each way (pair_shortcut.hpp).
struct PairRoute {
  int peer = -1;
  double out_latency = 0, out_bandwidth = 0, in_latency = 0, in_bandwidth = 0;
};

struct DeviceRuntime {
  int rank = 0;
  const CompiledStage* stage = nullptr;
  simgrid::s4u::Host* host = nullptr;
  std::vector<uint8_t> done;                        // done[t] once task t of the template finished
  // Collective messages to this device, one mailbox per (group dimension, sender), made on first
  // use (collective_mailbox). A receive takes the first message in its mailbox; each sender posts
  // its messages to this device in the order this device receives them (one group per dimension,
  // the same stage template, the same plan), so per sender that order is exact. A mailbox shared by
  // several senders is not: a peer that ran ahead into a later step or collective had its message
  // taken by a receive meant for another peer, and two devices each left holding the other's
  // message waited for each other forever (tests/replay/group_mailbox_test.cpp).
  std::unordered_map<uint32_t, simgrid::s4u::Mailbox*> inbox;
  simgrid::s4u::Mailbox* pp_forward = nullptr;      // activations from the previous stage
  simgrid::s4u::Mailbox* pp_backward = nullptr;     // gradients from the next stage
  DeviceKernel kernel;                              // compute in progress and its speed (device_kernel.hpp)
  std::array<std::vector<int>, kDims> groups;       // group ranks per dimension, filled lazily
  std::map<std::pair<int, int>, std::unique_ptr<SwitchProxy>> switch_proxies;  // by (stream, tier), lazily
  std::vector<SwitchRoute> switch_routes;           // by tier, filled lazily
  std::vector<PairRoute> pair_routes;               // by peer, filled lazily
  DeviceTimeline stats;
  // It arrived at a collective instance that some replayed members had not reached: when they
  // do, its speed drops (interference.hpp), maybe later in this same round of its own date.
  bool awaits_members = false;
};

struct ReplayContext {
  const RunSpec* run = nullptr;
  const Mesh* mesh = nullptr;
  const RunGraph* graph = nullptr;
  ReplayOptions options;
  BuiltPlatform platform;
  std::vector<CompiledStage> stages;
  std::vector<std::unique_ptr<DeviceRuntime>> devices;  // by rank; null when folded away
  CollectiveCache collectives;
  GroupCollectiveMemo choices;          // each collective task's choice, by group (collective_choice.hpp)
  std::vector<int> domain_sizes;        // devices per domain of each tier (tier_layout.hpp)
  bool interference = false;            // accelerator.comm_interference > 0: track moving bytes
  std::vector<uint8_t> private_switch;  // by tier: exchanges with its switch are timed (switch_shortcut.hpp)
  std::vector<uint8_t> private_pairs;   // by tier: member-to-member collectives may be timed (pair_shortcut.hpp)
  PairRendezvous pairs;                 // used only on private_pairs tiers
  CollectiveRendezvous rendezvous;      // used only when `interference`
  bool folding = false;                 // some devices are folded away (fold_plan.hpp)
  std::vector<int> link_owner;          // by rank: the replayed device it mirrors (fold_owners)
  std::vector<TraceEvent> trace;
  uint64_t tasks_executed = 0;
  uint64_t wakeups = 0;  // Timeline::wakeups
  ProgressMeter progress;
  // The first exception an actor raised: SimGrid 3.32 aborts the process when one leaves an actor,
  // so actors catch it, stop the simulation, and replay() rethrows it after Engine::run().
  std::exception_ptr failure;

  // Counts `n` more finished tasks (and reports progress when asked to).
  void count_tasks(uint64_t n) {
    tasks_executed += n;
    progress.update(tasks_executed, simgrid::s4u::Engine::get_clock());
  }

  DeviceRuntime* device(int rank) const { return devices[static_cast<size_t>(rank)].get(); }
  const std::vector<int>& group(DeviceRuntime& dev, Dim dim) const;
  // Latency of one transfer between two ranks: the latency of the innermost tier joining them.
  Seconds latency_between(int a, int b) const;
};

// The proxy at the switch end of `dev`'s in-network reductions on `stream` over `tier`.
SwitchProxy& switch_proxy(ReplayContext& ctx, DeviceRuntime& dev, Stream stream, int tier);
// The routes between `dev` and its switch on `tier`.
const SwitchRoute& switch_route(ReplayContext& ctx, DeviceRuntime& dev, int tier);

// Runs every stream of one device (the body of its SimGrid actor, device_loop.cpp).
void run_device(ReplayContext& ctx, DeviceRuntime& dev);

}  // namespace trainsim
