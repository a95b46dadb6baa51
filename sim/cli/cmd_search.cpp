// `trainsim search`: the fastest strategies of a model on a cluster under the iteration formulas
// (sim/search: every valid strategy, best k guaranteed), then the top k replayed on SimGrid in
// parallel child processes and re-ranked by the replay; --baseline compares with an expert's run,
// --out writes the winner as a run YAML that `simulate` reproduces.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "sim/analytic/device_memory.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/search_base.hpp"
#include "sim/cli/search_report.hpp"
#include "sim/cli/theta_file.hpp"
#include "sim/core/child_process.hpp"
#include "sim/core/error.hpp"
#include "sim/core/number_text.hpp"

namespace trainsim {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string gib(double bytes) { return format_with("%.1f GiB", bytes / 1073741824.0); }

// When nothing fits: exit 2 with the strategy that comes closest.
[[noreturn]] void nothing_fits(const SearchOutcome& o, const RunSpec& base) {
  std::string msg = "search: no strategy fits in " + gib(base.platform.accelerator.memory_capacity) + " per device";
  if (o.closest_oom)
    msg += "; the closest, " + strategy_label(o.closest_oom->run) + ", needs " + gib(o.closest_oom->peak_memory) + " (" +
           gib(o.closest_oom->peak_memory - base.platform.accelerator.memory_capacity) + " over)";
  throw UserError(msg + ". Try more devices, a smaller global batch or sequence, or widen --space (offload=none,optimizer)");
}

BaselineRow evaluate_baseline(const RunSpec& run, const IterationTheta& theta) {
  const IterationInputs in = extract_iteration_inputs(run);
  return BaselineRow{RankedStrategy{run, estimate_iteration(in, theta), fullest_stage_memory(in), 0}, std::nullopt,
                     run.platform.accelerator.memory_capacity};
}

// Replays the listed runs in parallel children (progress on stderr), in order, folded wherever the
// fold is exact (the figures `simulate` prints unfolded, at a fraction of the cost).
std::vector<ReplayTerms> replay_all(const std::vector<const RunSpec*>& runs, int parallel, bool progress) {
  std::vector<std::function<std::string()>> jobs;
  for (const RunSpec* r : runs) jobs.push_back([r] { return replay_terms_text(*r, FoldPolicy::kWherePossible); });
  size_t done = 0;
  const auto start = Clock::now();
  const auto texts = call_in_children(
      jobs, parallel, [](size_t) {},
      [&](size_t i, const std::string& text) {
        ++done;
        if (progress)
          std::fprintf(stderr, "replayed %zu/%zu (%.1f s): %s -> %.4f s\n", done, jobs.size(), since(start),
                       strategy_label(*runs[i]).c_str(), parse_replay_terms(text).iteration_time);
      });
  std::vector<ReplayTerms> out;
  for (const std::string& t : texts) out.push_back(parse_replay_terms(t));
  return out;
}

void write_winner(const std::string& path, const SearchBase& base, const SearchRow& best) {
  RunSpec run = best.strategy->run;
  run.description = "found by trainsim search: " + strategy_label(run);
  std::ostringstream comment;
  comment << "Written by `trainsim search` (the fastest strategy of the space" << (best.replay ? ", re-ranked by replay" : "")
          << ").\nformula " << format_number(best.strategy->estimate.iteration_time) << " s"
          << (best.replay ? ", replay " + format_number(best.replay->iteration_time) + " s" : "") << " per iteration.";
  const std::string text = run_yaml(run, base.refs, comment.str());
  write_output_file(path, "--out", [&](std::ostream& out) { out << text; });
}

int run_search(const ParsedArgs& a) {
  const SearchBase base = search_base(a);
  const SearchSpace space = parse_search_space(a.all("space"), a.all("fix"));
  const ThetaFile theta = load_theta_for(base.run.platform, a.get("theta", ""));
  const int top = option_int(a, "top", 10);
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  const int parallel = option_int(a, "parallel", static_cast<int>(std::max(1L, cores)));
  if (parallel < 1) throw UserError("--parallel: " + std::to_string(parallel) + " replays at once; valid: 1 or more");
  const auto start = Clock::now();
  const SearchOutcome outcome = search_strategies(base.run, space, theta.theta, top);
  std::fprintf(stderr, "search: %lld strategies in %.2f s (theta: %s)\n", outcome.counts.enumerated, since(start),
               theta.source.empty() ? "defaults" : theta.source.c_str());
  if (outcome.top.empty()) nothing_fits(outcome, base.run);
  SearchReport report;
  report.outcome = &outcome;
  report.space = space.describe();
  for (size_t i = 0; i < outcome.top.size(); ++i) report.rows.push_back({&outcome.top[i], static_cast<int>(i + 1), {}});
  if (base.baseline) report.baseline = evaluate_baseline(*base.baseline, theta.theta);
  if (!a.has("no-replay")) {
    std::vector<const RunSpec*> runs;
    for (const SearchRow& r : report.rows) runs.push_back(&r.strategy->run);
    // A baseline that does not fit is not replayed: it could not run.
    const bool replay_baseline = report.baseline && report.baseline->fits();
    if (replay_baseline) runs.push_back(&report.baseline->strategy.run);
    const auto replay_start = Clock::now();
    const std::vector<ReplayTerms> replayed = replay_all(runs, parallel, a.has("progress") || isatty(STDERR_FILENO));
    std::fprintf(stderr, "search: replayed %zu runs in %.1f s\n", runs.size(), since(replay_start));
    for (size_t i = 0; i < report.rows.size(); ++i) report.rows[i].replay = replayed[i];
    if (replay_baseline) report.baseline->replay = replayed.back();
    std::stable_sort(report.rows.begin(), report.rows.end(),
                     [](const SearchRow& x, const SearchRow& y) { return x.time() < y.time(); });
  }
  if (a.has("json")) print_search_json(std::cout, report);
  else print_search_table(std::cout, report);
  if (a.has("out")) write_winner(a.get("out"), base, report.rows.front());
  return 0;
}

}  // namespace

Command search_command() {
  CommandSpec spec;
  spec.name = "search";
  spec.usage = "--model M --platform P --devices N --global-batch B --seq S [options]";
  spec.summary = "find the fastest parallel strategy under the formulas, then replay the best on SimGrid";
  spec.options = {
      {"model", "M", "model preset (trainsim list models) or model YAML (required)"},
      {"platform", "P", "platform preset (trainsim list platforms) or platform YAML (required)"},
      {"devices", "N", "accelerators to train on (required)"},
      {"global-batch", "B", "sequences per iteration (required)"},
      {"seq", "S", "sequence length in tokens (required)"},
      {"precision", "P", "fp32, tf32, bf16 (default), fp16, fp8 or mxfp8"},
      {"space", "KNOB=V1,V2", "restrict a knob to these values; knobs: tp, pp, dp, cp, ep, micro_batch, virtual_stages, "
                              "first_stage_layers, last_stage_layers, schedule, sequence_parallel, zero_stage, recompute, recompute_layers, offload, "
                              "overlap.dp_grad_reduce, overlap.zero_param_gather, overlap.tp_comm, overlap.pp_comm, "
                              "mesh_order (mesh_order=all: all 24)", true},
      {"fix", "KNOB=V", "fix a knob to one value (same knobs as --space)", true},
      {"top", "K", "strategies to rank, replay and print (default 10)"},
      {"no-replay", "", "rank by the formulas only"},
      {"parallel", "N", "replays at once (default: the machine's cores)"},
      {"progress", "", "print each replay as it finishes on stderr (default when stderr is a terminal)"},
      {"baseline", "RUN.yaml", "an expert's run of the same model, platform, devices, batch and sequence: prints the "
                               "winner's speedup over it and which terms shrank; the search keeps its other run fields "
                               "(framework overhead, buckets, collectives)"},
      {"framework-overhead", "BYTES", "memory the framework itself takes per device, e.g. 3GiB (default: the "
                                      "baseline's, else 0)"},
      {"theta", "FILE", "formula coefficients (default: platforms/theta/<platform>.yaml, else 1s)"},
      {"out", "FILE", "write the winner as a run YAML that `trainsim simulate` reproduces"},
      {"json", "", "print the result as JSON"}};
  spec.details =
      "Every strategy the space admits is enumerated: tp (divisors of the heads, up to one node unless --space\n"
      "names larger), pp (up to the layers), cp (dividing the sequence), dp (dividing the global batch), ep (MoE),\n"
      "micro-batch, schedule with virtual stages (uneven first/last stages where interleaving needs them), SP,\n"
      "ZeRO 0-3, recompute (full: the fewest layers that fit),\n"
      "overlap switches and mesh order. Strategies that do not fit in device memory (each stage's exact peak) are\n"
      "rejected; the rest are ranked by the formulas, pruning with a lower bound that keeps the best k exact.\n"
      "Strategies with equal formula times are listed once (+N equal). Optimizer offload is searched only when\n"
      "--space offload=none,optimizer asks (timed as DeepSpeed's ZeRO-Offload; needs the platform's\n"
      "host_link_bandwidth and host_memory_bandwidth).\n"
      "Exit status: 0 found; 2 bad input, or no strategy fits (naming the closest and how far over it is).";
  spec.max_positionals = 0;
  return {spec, run_search};
}

}  // namespace trainsim
