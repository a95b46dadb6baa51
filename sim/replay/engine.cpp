#include "sim/replay/engine.hpp"

#include <malloc.h>
#include <simgrid/plugins/load.h>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <cstdio>
#include <stdexcept>
#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include "sim/core/error.hpp"
#include "sim/core/machine.hpp"
#include "sim/platform/tier_layout.hpp"
#include "sim/replay/fold_plan.hpp"
#include "sim/replay/link_stats.hpp"
#include "sim/replay/runtime.hpp"
#include "sim/replay/switch_plan.hpp"
#include "sim/replay/switch_shortcut.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {

const std::vector<int>& ReplayContext::group(DeviceRuntime& dev, Dim dim) const {
  auto& g = dev.groups[static_cast<int>(dim)];
  if (g.empty()) g = mesh->group(dev.rank, dim);
  return g;
}

Seconds ReplayContext::latency_between(int a, int b) const {
  const int tier = tier_between_sizes(domain_sizes, a, b);
  return run->platform.tiers[static_cast<size_t>(tier)].latency;
}

SwitchProxy& switch_proxy(ReplayContext& ctx, DeviceRuntime& dev, Stream stream, int tier) {
  auto& proxy = dev.switch_proxies[{static_cast<int>(stream), tier}];
  if (!proxy) {
    const std::string name =
        "r" + std::to_string(dev.rank) + "." + to_string(stream) + ".t" + std::to_string(tier) + ".switch";
    proxy = std::make_unique<SwitchProxy>(ctx.platform.switch_host(tier, dev.rank), name,
                                          switch_exchanges(ctx, dev, stream, tier));
  }
  return *proxy;
}

namespace {

// Resident memory of a replay per replayed device (its stream actors, their stacks' touched
// pages, its task state), bytes: an upper bound of what scripts/bench.sh measured on unfolded
// runs: 0.73 MB per device at 2,048 H100 (Llama 3 70B, 1.50 GB peak) and 0.71 MB at 16,384
// (Llama 3 405B, 11.7 GB resident while the replay was starting).
constexpr double kBytesPerReplayedDevice = 1024.0 * 1024;

// Refuses, before anything is built, a replay the machine cannot hold (exit 2, not the kernel's
// out-of-memory kill part-way through).
void check_machine_memory(int replayed_devices) {
  const double need = replayed_devices * kBytesPerReplayedDevice;
  const auto available = static_cast<double>(available_memory_bytes());
  if (available <= 0 || need <= available) return;
  char text[256];
  std::snprintf(text, sizeof text,
                "replaying %d devices needs about %.1f GB of memory (about 1 MB per replayed device); this machine "
                "has %.1f GB available: fold the replay (--fold on) or run on a machine with more memory",
                replayed_devices, need / 1e9, available / 1e9);
  throw UserError(text);
}

// One actor per device (plus a switch proxy per stream that reduces in the network): 16,384
// devices run up to about 50,000 actors. SimGrid 3.32 maps each actor's 256 KiB stack on its
// own and splits the mapping with a guard page: two mappings per actor, so past about 30,000
// actors Linux's default vm.max_map_count (65,530) is exceeded and SimGrid aborts. Such runs get
// stacks from the heap instead (no guard page, glibc's mmap threshold above the stack size): no
// mapping per actor, at the price of resident memory (glibc zeroes a reused heap block, so a
// stack can become resident whole). Smaller runs keep mapped, guarded stacks, resident only
// where touched.
void place_actor_stacks(sg4::Engine& engine, const RunGraph& graph, int replayed_devices) {
  int streams = 0;  // the most communication streams a stage runs (each may have a switch proxy)
  for (const StageGraph& stage : graph.stages) {
    int used = 0;
    for (int s = 1; s < kStreams; ++s) used += stage.order(static_cast<Stream>(s)).empty() ? 0 : 1;
    streams = std::max(streams, used);
  }
  const double actors = static_cast<double>(replayed_devices) * (1 + streams);  // devices and proxies
  constexpr double kMappingsPerActor = 2, kOtherMappings = 2000;                // stack + guard; libraries, heap
  if (actors * kMappingsPerActor + kOtherMappings <= static_cast<double>(max_memory_mappings())) return;
  engine.set_config("contexts/guard-size:0");
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
}

std::unique_ptr<DeviceRuntime> make_device(ReplayContext& ctx, int rank) {
  auto dev = std::make_unique<DeviceRuntime>();
  dev->rank = rank;
  const int stage = ctx.mesh->coord(rank)[Dim::kPp];
  dev->stage = &ctx.stages[static_cast<size_t>(stage)];
  dev->host = ctx.platform.hosts[static_cast<size_t>(rank)];
  dev->done.assign(dev->stage->graph->size(), 0);
  dev->kernel.init(dev->host->get_pstate_speed(kDeviceIdleLinks), dev->host->get_pstate_speed(kDeviceBusyLinks), simgrid::config::get_value<double>("maxmin/precision") *
                                                                      simgrid::config::get_value<double>("surf/precision"));
  const std::string prefix = "r" + std::to_string(rank) + ".";
  dev->pp_forward = sg4::Mailbox::by_name(prefix + "pp_fwd");
  dev->pp_backward = sg4::Mailbox::by_name(prefix + "pp_bwd");
  dev->stats.rank = rank;
  dev->stats.stage = stage;
  return dev;
}

// One actor per device runs all of its streams (device_loop.cpp).
void start_actor(ReplayContext& ctx, DeviceRuntime& dev) {
  ReplayContext* c = &ctx;
  DeviceRuntime* d = &dev;
  sg4::Actor::create(std::to_string(dev.rank), dev.host, [c, d] {
    // Eager pipeline messages: a send completes without waiting for the matching receive.
    const bool receives = !d->stage->graph->order(Stream::kPpRecv).empty();
    if (receives) {
      d->pp_forward->set_receiver(sg4::Actor::self());
      d->pp_backward->set_receiver(sg4::Actor::self());
    }
    try {
      run_device(*c, *d);
    } catch (const simgrid::ForcefulKillException&) {
      throw;  // SimGrid ending this actor (kill_all below, or a deadlock): it must unwind
    } catch (...) {
      if (!c->failure) c->failure = std::current_exception();
      sg4::Actor::kill_all();  // every other actor: the run cannot go on
      return;
    }
    if (receives) {
      d->pp_forward->set_receiver(nullptr);
      d->pp_backward->set_receiver(nullptr);
    }
  });
}

Timeline collect(const ReplayContext& ctx) {
  Timeline out;
  out.iteration_time = sg4::Engine::get_clock();
  out.devices_total = ctx.run->devices;
  out.folded = ctx.folding;
  out.tasks_executed = ctx.tasks_executed;
  out.wakeups = ctx.wakeups;
  for (const auto& dev : ctx.devices) {
    if (!dev) continue;
    DeviceTimeline t = dev->stats;
    Seconds accounted = 0;
    for (Seconds s : t.time) accounted += s;
    t.time[static_cast<int>(TimeCategory::kIdle)] = std::max(0.0, out.iteration_time - accounted);
    out.devices.push_back(t);
  }
  out.trace = ctx.trace;
  return out;
}

}  // namespace

Timeline replay(const RunSpec& run, const RunGraph& graph, const Mesh& mesh, const ReplayOptions& options) {
  // owner[r] == r exactly for the devices this replay runs (fold_plan.hpp).
  std::vector<int> owner = fold_owners(mesh, run.strategy, options);
  int replayed = 0;
  for (int rank = 0; rank < run.devices; ++rank) replayed += owner[static_cast<size_t>(rank)] == rank ? 1 : 0;
  check_machine_memory(replayed);
  xbt_log_control_set("root.thres:warning");
  int argc = 1;
  char name[] = "trainsim";
  char* argv[] = {name, nullptr};
  sg4::Engine engine(&argc, argv);
  engine.set_config("contexts/stack-size:256");
  place_actor_stacks(engine, graph, replayed);
  configure_network(engine);
  if (options.link_stats) sg_link_load_plugin_init();

  ReplayContext ctx;
  ctx.run = &run;
  ctx.mesh = &mesh;
  ctx.graph = &graph;
  ctx.options = options;
  ctx.link_owner = std::move(owner);
  ctx.platform = build_platform(run.platform, run.devices, ctx.link_owner);
  ctx.domain_sizes = tier_domain_sizes(run.platform, run.devices);
  ctx.interference = run.platform.accelerator.comm_interference > 0;
  ShortcutTiers shortcuts = shortcut_tiers(run, graph, mesh, options);
  ctx.private_switch = std::move(shortcuts.switch_exchanges);
  ctx.private_pairs = std::move(shortcuts.pairs);
  for (const auto& stage : graph.stages) ctx.stages.push_back(compile_stage(stage));
  ctx.devices.resize(static_cast<size_t>(run.devices));
  for (int rank = 0; rank < run.devices; ++rank) {
    if (ctx.link_owner[static_cast<size_t>(rank)] == rank)
      ctx.devices[static_cast<size_t>(rank)] = make_device(ctx, rank);
    else
      ctx.folding = true;
  }
  if (options.link_stats) track_links(ctx.platform);
  uint64_t total_tasks = 0;
  for (auto& dev : ctx.devices)
    if (dev) start_actor(ctx, *dev), total_tasks += dev->stage->graph->size();
  ctx.progress.start(options.progress, total_tasks);
  // A deadlock is a defect of the replay: SimGrid ends the waiting actors and returns, and the
  // replay fails with this message instead of aborting.
  sg4::Engine::on_deadlock_cb([c = &ctx] {
    if (!c->failure)
      c->failure = std::make_exception_ptr(std::logic_error(
          "replay deadlock at " + std::to_string(sg4::Engine::get_clock()) +
          " s: devices wait for messages that never come (a defect of the replay, not of the run)"));
  });
  engine.run();
  if (ctx.failure) std::rethrow_exception(ctx.failure);
  ctx.progress.finish(ctx.tasks_executed, sg4::Engine::get_clock());
  Timeline out = collect(ctx);
  if (options.link_stats) out.links = read_link_stats(ctx.platform, out.iteration_time);
  return out;
}

}  // namespace trainsim
