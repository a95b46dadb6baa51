#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "sim/analytic/device_memory.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/run_loading.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/builder.hpp"
#include "sim/replay/fold_plan.hpp"
#include "sim/report/links_csv.hpp"
#include "sim/report/run_description.hpp"
#include "sim/report/summary.hpp"
#include "sim/report/trace_writer.hpp"

namespace trainsim {
namespace {

// "0-7,64,100-103" → {0..7, 64, 100..103}; every rank must exist, each part is digits or digits-digits.
std::set<int> parse_ranks(const std::string& text, int devices) {
  std::set<int> out;
  std::stringstream in(text);
  std::string part;
  auto rank_of = [](const std::string& digits) {
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("not a rank");
    return std::stoi(digits);
  };
  while (std::getline(in, part, ',')) {
    const size_t dash = part.find('-');
    try {
      const int lo = rank_of(part.substr(0, dash));
      const int hi = dash == std::string::npos ? lo : rank_of(part.substr(dash + 1));
      if (hi >= devices || lo > hi) throw std::out_of_range("range");
      for (int r = lo; r <= hi; ++r) out.insert(r);
    } catch (const std::exception&) {
      throw UserError("--trace-devices: '" + part + "' is not a rank or range of ranks in 0.." +
                      std::to_string(devices - 1) + " (example: 0,8-15)");
    }
  }
  if (out.empty()) throw UserError("--trace-devices: '" + text + "' names no rank (example: 0,8-15)");
  return out;
}

ReplayOptions replay_options(const ParsedArgs& a, const RunSpec& run) {
  ReplayOptions o;
  const std::string mode = a.get("collectives", "bulk");
  if (mode != "bulk" && mode != "step") throw UserError("--collectives: '" + mode + "'; valid: bulk, step");
  o.collectives = mode == "step" ? CollectiveMode::kStep : CollectiveMode::kBulk;
  const std::string fold = a.get("fold", "auto");
  if (fold != "auto" && fold != "on" && fold != "off" && fold != "dp" && fold != "tp")
    throw UserError("--fold: '" + fold + "'; valid: auto, on (dp and tp), dp, tp, off");
  const bool can_fold_dp = run.strategy.dp > replicas_kept(run.strategy);
  if (fold == "dp" && !can_fold_dp)
    throw UserError("--fold dp needs more data-parallel replicas (dp " + std::to_string(run.strategy.dp) +
                    ") than whole expert-parallel groups take (" + std::to_string(replicas_kept(run.strategy)) + ")");
  const bool big = run.devices > 1024;
  // "on" folds whatever can be folded; "dp"/"tp" insist on that one dimension.
  o.fold_data_parallel = fold == "dp" || ((fold == "on" || (fold == "auto" && big)) && can_fold_dp);
  o.fold_tensor_parallel = run.strategy.tp > 1 && (fold == "on" || fold == "tp" || (fold == "auto" && big));
  if (a.has("trace-devices") && !a.has("trace")) throw UserError("--trace-devices applies only with --trace FILE");
  if (a.has("trace")) {
    if (a.has("trace-devices")) {
      o.trace_devices = parse_ranks(a.get("trace-devices"), run.devices);
    } else {
      for (int r = 0; r < std::min(run.devices, 64); ++r) o.trace_devices.insert(r);
    }
  }
  o.link_stats = a.has("links");
  o.progress = a.has("progress") || isatty(STDERR_FILENO) != 0;
  return o;
}


TraceGranularity trace_granularity(const ParsedArgs& a) {
  const std::string g = a.get("trace-granularity", "kernel");
  if (g != "kernel" && g != "layer") throw UserError("--trace-granularity: '" + g + "'; valid: kernel, layer");
  if (a.has("trace-granularity") && !a.has("trace")) throw UserError("--trace-granularity applies only with --trace FILE");
  return g == "layer" ? TraceGranularity::kLayer : TraceGranularity::kKernel;
}

// A folded replay runs only some devices: say which asked-for devices the trace cannot show.
void warn_folded_trace(const ReplayOptions& options, const Timeline& timeline, bool asked) {
  if (!timeline.folded) return;
  std::set<int> replayed;
  for (const DeviceTimeline& d : timeline.devices) replayed.insert(d.rank);
  int missing = 0;
  for (int rank : options.trace_devices) missing += replayed.count(rank) ? 0 : 1;
  if (missing == 0) return;
  std::cerr << "warning: --trace: " << missing << " of the " << options.trace_devices.size() << " devices "
            << (asked ? "asked for" : "traced by default") << " were folded away (each mirrors a replayed device) "
            << "and are not in the trace; --fold off replays and traces every device\n";
}

int run_simulate(const ParsedArgs& a) {
  require_distinct_outputs(a, {"json", "trace", "links"});
  const RunSpec run = load_run_for_command(a);
  const auto memory = stage_memory(run);
  if (!a.has("allow-oom")) require_fits(run, memory);
  const ReplayOptions options = replay_options(a, run);
  const TraceGranularity granularity = trace_granularity(a);
  const auto start = std::chrono::steady_clock::now();
  const RunGraph graph = build_run_graph(run);
  const Timeline timeline = replay_exact(run, graph, Mesh(run.strategy), options);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const RunMetrics metrics = compute_metrics(run, timeline);
  const SimulationReport report{run, timeline, metrics, memory, options, wall};
  write_summary(std::cout, report);
  if (a.has("json")) write_output_file(a.get("json"), "--json", [&](std::ostream& o) { write_result_json(o, report); });
  if (a.has("trace")) {
    write_output_file(a.get("trace"), "--trace", [&](std::ostream& o) { write_chrome_trace(o, timeline, granularity); });
    warn_folded_trace(options, timeline, a.has("trace-devices"));
  }
  if (a.has("links")) write_output_file(a.get("links"), "--links", [&](std::ostream& o) { write_links_csv(o, run, timeline); });
  return 0;
}

}  // namespace

Command simulate_command() {
  CommandSpec spec;
  spec.name = "simulate";
  spec.usage = "RUN.yaml [options]";
  spec.summary = "replay one training iteration on SimGrid and report time, throughput, MFU, breakdown, memory";
  spec.options = {
      {"json", "FILE", "write machine-readable results (iteration_time_s, tokens_per_s, mfu, breakdown, ...)"},
      {"trace", "FILE", "write a Chrome trace-event JSON (open in ui.perfetto.dev): a process per device, a track per stream"},
      {"trace-devices", "RANKS", "devices to trace, e.g. 0,8-15 (default: the first 64)"},
      {"trace-granularity", "G", "kernel (default: one slice per kernel or collective) or layer (one slice per layer, "
                                 "micro-batch and pass on each stream: a far smaller file)"},
      {"links", "FILE", "write per-link configured and effective bandwidth, bytes and utilisation as CSV, busiest "
                        "first; links that carried nothing are left out"},
      {"collectives", "MODE", "bulk (default: one flow per peer pair, per-step latency added) or step (every step)"},
      {"fold", "MODE", "auto (default: dp and tp above 1024 devices), on (dp and tp), dp, tp, off: replay one replica; "
                       "declined, with the reason, where folding would not be exact"},
      {"allow-oom", "", "simulate even when the strategy does not fit in memory"},
      {"progress", "", "report progress on stderr at most once a second (default: only when stderr is a terminal)"},
      set_option()};
  spec.details =
      "The run is checked first (as `trainsim check`); a strategy that does not fit in memory stops with the\n"
      "numbers unless --allow-oom. Folding replays only data-parallel index 0 (dp) and/or tensor-parallel\n"
      "rank 0 (tp); their collectives still load the real links of the replayed devices.";
  spec.min_positionals = spec.max_positionals = 1;
  return {spec, run_simulate};
}

}  // namespace trainsim
