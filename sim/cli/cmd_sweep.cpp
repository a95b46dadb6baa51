// `trainsim sweep`: what-if studies. The run is replayed at every point of a grid of --set values
// (--vary lists: their cartesian product, or with --zip taken together), in parallel child
// processes, and the points are tabulated (iteration time, tokens/s, MFU, memory, breakdown) and
// plotted; --search re-plans the strategy at every point. Every point is loaded and checked
// before anything is replayed. --emit-jobs splits the points into jobs for GNU parallel or a
// Slurm array, whose results --merge tabulates exactly as a local sweep would.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/run_loading.hpp"
#include "sim/cli/sweep_jobs.hpp"
#include "sim/cli/sweep_output.hpp"
#include "sim/cli/sweep_point.hpp"
#include "sim/core/child_process.hpp"
#include "sim/core/error.hpp"
#include "sim/search/space.hpp"
#include "sim/sweep/sweep_plot.hpp"

namespace trainsim {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

int positive_option(const ParsedArgs& a, const std::string& name, int fallback) {
  const int v = option_int(a, name, fallback);
  if (v < 1) throw UserError("--" + name + " must be a whole number >= 1 (got '" + a.get(name) + "')");
  return v;
}

SweepSpec spec_from_args(const ParsedArgs& a) {
  if (a.positionals().size() != 1) throw UserError("sweep: give one RUN.yaml (or --merge DIR; see trainsim sweep --help)");
  SweepSpec s;
  s.run_file = std::filesystem::absolute(a.positionals()[0]).lexically_normal().string();
  s.sets = a.all("set");
  s.varies = a.all("vary");
  s.zip = a.has("zip");
  s.search = a.has("search");
  for (const char* only : {"top", "space", "fix", "theta"})
    if (!s.search && a.has(only)) throw UserError(std::string("sweep: --") + only + " applies only with --search");
  s.top = positive_option(a, "top", 3);
  s.space = a.all("space");
  s.fix = a.all("fix");
  // Absolute, as the run file: emitted jobs may run in another folder.
  if (a.has("theta")) s.theta = std::filesystem::absolute(a.get("theta")).lexically_normal().string();
  return s;
}

// With --search the strategy is re-planned at every point, so a --set or --vary of a strategy knob
// would be silently replaced: refused, pointing at the search's own --fix and --space. The strategy
// fields the search keeps from the run (gradient buckets and precision, accumulation fusion) pass.
void refuse_replanned_keys(const SweepSpec& spec) {
  auto check = [](const std::string& arg, const char* option, const char* instead) {
    const std::string key = arg.substr(0, arg.find('='));
    const bool strategy = key.rfind("strategy.", 0) == 0;
    const std::string knob = strategy ? key.substr(9) : key;
    if (knob == "grad_bucket_size" || knob == "grad_precision" || knob == "grad_accumulation_fusion") return;
    if (!strategy && key != "micro_batch") return;
    throw UserError("sweep --search: " + std::string(option) + " " + key + " would be ignored: the search re-plans " +
                    "the strategy at every point; constrain it with " + instead + " " + knob +
                    "=... instead (see trainsim search --help)");
  };
  for (const std::string& s : spec.sets) check(s, "--set", "--fix");
  for (const std::string& v : spec.varies) check(v, "--vary", "--space");
}

// Every point's run, loaded and checked before anything is replayed (a bad value fails fast).
std::vector<RunSpec> load_points(SweepSpec& spec, const std::vector<SweepPoint>& grid) {
  if (spec.search) (void)parse_search_space(spec.space, spec.fix);
  if (spec.search) refuse_replanned_keys(spec);
  std::vector<RunSpec> runs;
  for (const SweepPoint& p : grid) runs.push_back(load_point_run(spec, p));
  spec.run_name = runs.front().name;
  return runs;
}

std::vector<PointResult> run_points(const SweepSpec& spec, const std::vector<SweepPoint>& grid,
                                    const std::vector<RunSpec>& runs, int parallel, bool progress) {
  std::vector<std::function<std::string()>> jobs;
  for (size_t i = 0; i < grid.size(); ++i)
    jobs.push_back([&, i] { return evaluate_point(spec, grid[i], runs[i]); });
  const auto start = Clock::now();
  size_t done = 0;
  std::vector<PointResult> results;
  const auto texts = call_in_children(jobs, parallel, [](size_t) {}, [&](size_t i, const std::string& text) {
    ++done;
    if (!progress) return;
    const PointResult r = parse_point_result(text, point_label(grid[i]));
    std::fprintf(stderr, "sweep: %zu/%zu done (%.1f s): %s -> %s\n", done, jobs.size(), seconds_since(start),
                 point_label(grid[i]).c_str(),
                 r.status == PointStatus::kReplayed ? (std::to_string(r.iteration_time) + " s").c_str() : to_string(r.status));
  });
  for (size_t i = 0; i < texts.size(); ++i) results.push_back(parse_point_result(texts[i], point_label(grid[i])));
  return results;
}

int run_local_or_emit(const ParsedArgs& a) {
  SweepSpec spec = spec_from_args(a);
  const std::vector<SweepPoint> grid = expand_grid(parse_varies(spec.varies), spec.zip);
  const std::vector<RunSpec> runs = load_points(spec, grid);
  if (a.has("emit-jobs")) {
    for (const char* output : {"csv", "markdown", "plot", "metric", "jobs"})
      if (a.has(output))
        throw UserError(std::string("sweep: --emit-jobs replays nothing, so --") + output +
                        " has nothing to do here; give it to the merge step (DIR/merge.sh --" + output + " ...)");
    const std::string dir = a.get("emit-jobs");
    emit_sweep_jobs(spec, dir, static_cast<int>(grid.size()));
    std::cout << "wrote " << grid.size() << " jobs to " << dir << "/jobs.txt, a Slurm array to " << dir
              << "/sweep.sbatch and the merge step " << dir << "/merge.sh\n"
              << "run them:  parallel < " << dir << "/jobs.txt   (across hosts: parallel --sshloginfile HOSTS < "
              << dir << "/jobs.txt, with " << dir << " and trainsim at the same paths on every host)\n"
              << "       or: sbatch " << dir << "/sweep.sbatch\n"
              << "then:      " << dir << "/merge.sh [--csv F] [--markdown F] [--plot F.svg]\n";
    return 0;
  }
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  const int parallel = positive_option(a, "jobs", static_cast<int>(std::max(1L, cores)));
  const auto start = Clock::now();
  const auto results = run_points(spec, grid, runs, parallel, a.has("progress") || isatty(STDERR_FILENO));
  std::fprintf(stderr, "sweep: %zu points in %.1f s (%d at a time)\n", grid.size(), seconds_since(start), parallel);
  write_sweep_outputs(a, spec, results);
  return 0;
}

// --merge and --point read the sweep from the jobs folder's manifest: options that define one are refused.
void refuse_sweep_definition(const ParsedArgs& a, const std::string& mode) {
  for (const char* other : {"vary", "set", "zip", "search", "top", "space", "fix", "theta", "emit-jobs"})
    if (a.has(other)) throw UserError("sweep: " + mode + " takes the sweep from the folder's manifest; drop --" + other);
  if (!a.positionals().empty())
    throw UserError("sweep: " + mode + " takes the sweep from the folder's manifest; drop " + a.positionals()[0]);
}

// One emitted job: point I of the sweep in DIR.
int run_job(const ParsedArgs& a) {
  refuse_sweep_definition(a, "--point");
  if (!a.has("jobs-dir")) throw UserError("sweep: --point needs --jobs-dir DIR (the folder --emit-jobs wrote)");
  const std::string dir = a.get("jobs-dir");
  const SweepSpec spec = read_sweep_manifest(dir);
  const std::vector<SweepPoint> grid = expand_grid(parse_varies(spec.varies), spec.zip);
  const int index = option_int(a, "point", -1);
  if (index < 0 || index >= static_cast<int>(grid.size()))
    throw UserError("sweep: --point " + a.get("point") + ": the sweep in " + dir + " has points 0.." +
                    std::to_string(grid.size() - 1));
  const SweepPoint& point = grid[static_cast<size_t>(index)];
  write_point_result(dir, index, evaluate_point(spec, point, load_point_run(spec, point)));
  return 0;
}

int run_merge(const ParsedArgs& a) {
  refuse_sweep_definition(a, "--merge");
  for (const char* other : {"point", "jobs-dir"})
    if (a.has(other)) throw UserError(std::string("sweep: --merge tabulates every point; drop --") + other);
  const std::string dir = a.get("merge");
  const SweepSpec spec = read_sweep_manifest(dir);
  write_sweep_outputs(a, spec, read_point_results(spec, dir));
  return 0;
}

int run_sweep(const ParsedArgs& a) {
  (void)parse_sweep_metric(a.get("metric", "iteration_s"));
  require_distinct_outputs(a, {"csv", "markdown", "plot"});
  if (a.has("merge")) return run_merge(a);
  if (a.has("point")) return run_job(a);
  return run_local_or_emit(a);
}

}  // namespace

Command sweep_command() {
  CommandSpec spec;
  spec.name = "sweep";
  spec.usage = "RUN.yaml --vary KEY=V1,V2,... [--vary KEY=...] [options]   |   --merge DIR [outputs]";
  spec.summary = "what-if study: replay a run at every point of a grid of --set values; table and plots";
  spec.options = {
      {"vary", "KEY=V1,V2", "a run key (any key --set takes) and its values, e.g. platform.tiers.1.bandwidth="
                            "25GBps,50GBps,100GBps; several --vary give their cartesian product, the first outermost", true},
      {"zip", "", "take the --vary lists together instead (the i-th value of each; the lists must be of one length), "
                  "e.g. --vary devices=16,32 --vary strategy.dp=4,8 --zip"},
      set_option(),
      {"search", "", "re-plan the strategy at every point (as trainsim search), replay its top --top and keep the fastest: "
                     "which strategy wins where, e.g. --search --vary platform.tiers.1.bandwidth=25Gbps,400Gbps"},
      {"top", "K", "--search: strategies replayed per point (default 3), e.g. --top 5"},
      {"space", "KNOB=V1,V2", "--search: restrict a knob, as trainsim search --space, e.g. micro_batch=1,2", true},
      {"fix", "KNOB=V", "--search: fix a knob, as trainsim search --fix, e.g. zero_stage=1", true},
      {"theta", "FILE", "--search: formula coefficients (default: platforms/theta/<platform>.yaml), e.g. --theta my-theta.yaml"},
      {"jobs", "N", "points replayed at once (default: the machine's cores), e.g. --jobs 2"},
      {"progress", "", "print a line on stderr as each point finishes (default when stderr is a terminal), e.g. "
                       "sweep: 3/5 done (0.1 s): point 2 (...) -> 0.860677 s"},
      {"csv", "FILE", "write the table as CSV (six significant digits, every breakdown term), e.g. --csv sweep.csv"},
      {"markdown", "FILE", "write the table as markdown, e.g. --markdown sweep.md"},
      {"plot", "FILE.svg", "draw the metric against each varied key and the breakdown stacked per point (gnuplot), "
                           "e.g. --plot sweep.svg"},
      {"metric", "M", "what the plot shows against each key: iteration_s (default), tokens_per_s or mfu, e.g. --metric mfu"},
      {"emit-jobs", "DIR", "do not replay: write DIR/jobs.txt (one command per point, for GNU parallel), "
                           "DIR/sweep.sbatch (a Slurm array) and DIR/merge.sh, e.g. --emit-jobs sweep-jobs"},
      {"merge", "DIR", "tabulate the results the jobs of DIR wrote (the same outputs as a local sweep), e.g. "
                       "trainsim sweep --merge sweep-jobs --csv sweep.csv"},
      {"point", "I", "run point I of the sweep in --jobs-dir and write its result there (what each emitted job runs), e.g. --point 3 --jobs-dir sweep-jobs"},
      {"jobs-dir", "DIR", "the folder --emit-jobs wrote, for --point, e.g. --jobs-dir sweep-jobs"}};
  spec.details =
      "Each point's run is RUN.yaml with the --set overrides and then the point's own values, loaded and checked\n"
      "as `simulate` does; every point is checked before anything is replayed, so a bad key or value stops the\n"
      "sweep at once (exit 2, naming the point, the key, the value and what is valid). A point whose strategy\n"
      "does not fit in memory is listed as out of memory, not replayed. Replays are folded wherever the fold is\n"
      "exact (the times `simulate` prints). The table is byte-identical from run to run, and between a local\n"
      "sweep and --merge of its emitted jobs. With --search the strategy is re-planned at every point, so the run's\n"
      "own strategy need not be valid there (vary devices alone); strategy keys in --set/--vary are refused (use\n"
      "--fix/--space).\n"
      "Example: trainsim sweep workloads/default.yaml --vary platform.tiers.1.bandwidth=12.5GBps,25GBps,50GBps,"
      "100GBps,200GBps --plot bw.svg --markdown bw.md\n"
      "Scale-out: trainsim sweep RUN.yaml --vary ... --emit-jobs DIR; parallel < DIR/jobs.txt (or sbatch\n"
      "DIR/sweep.sbatch); DIR/merge.sh --csv sweep.csv. DIR and the trainsim binary must be at the same paths\n"
      "on every host (a shared file system).";
  spec.max_positionals = 1;
  return {spec, run_sweep};
}

}  // namespace trainsim
