#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/run_loading.hpp"
#include "sim/cli/validation_args.hpp"
#include "sim/core/error.hpp"
#include "sim/validate/gnuplot_plot.hpp"
#include "sim/validate/ranking_report.hpp"
#include "sim/validate/repeat_runs.hpp"
#include "sim/validate/text_format.hpp"
#include "sim/validate/validation_report.hpp"

namespace trainsim {
namespace {


// `target` as a link from the folder holding `from_file`.
std::string relative_to(const std::string& target, const std::string& from_file) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path rel = fs::relative(fs::absolute(target), fs::absolute(from_file).parent_path(), ec);
  return ec || rel.empty() ? target : rel.generic_string();
}

std::string command_line(const ParsedArgs& a) {
  std::string c = "trainsim validate";
  for (const auto& p : a.positionals()) c += " " + p;
  for (const char* o : {"only", "split", "csv", "ranking-csv", "markdown", "plot"})
    if (a.has(o)) c += std::string(" --") + o + " " + a.get(o);
  return c;
}

ValidationOptions progress_options(const ParsedArgs& a) {
  ValidationOptions o;
  o.overrides = a.all("set");
  o.jobs = jobs_option(a, 2);
  o.on_start = [](int i, int n, const Measurement& m) {
    progress_line(format_text("[%d/%d] %s ...", i + 1, n, m.id.c_str()));
  };
  o.on_done = [](int i, int n, const RowResult& r) {
    progress_line(format_text("[%d/%d] %s done in %.1f s: predicted %.3f s, measured %.3f s (%s%%)", i + 1, n,
                              r.measurement.id.c_str(), r.prediction.wall_seconds, r.prediction.iteration_time,
                              r.measured_time, signed_percent(r.error_percent).c_str()));
  };
  return o;
}

// The measurement files as links from the report's folder: "measurements.yaml, ../mine.yaml".
std::string files_relative_to(const std::vector<std::string>& files, const std::string& report) {
  std::string out;
  for (const auto& f : files) out += (out.empty() ? "" : ", ") + relative_to(f, report);
  return out;
}

int run_validate(const ParsedArgs& a) {
  require_distinct_outputs(a, {"csv", "ranking-csv", "markdown", "plot"});
  const MeasurementSet set = load_measurement_args(a);
  const auto rows = select_measurements(set, split_list(a.get("only")), split_option(a));
  if (rows.empty()) throw UserError("no measurement in " + set.file + " matches --only/--split");
  const auto start = std::chrono::steady_clock::now();
  const std::vector<RowResult> results = validate_measurements(rows, progress_options(a));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cerr << "validated " << results.size() << " rows in " << format_text("%.1f", wall) << " s\n";
  const ValidationSummary summary = summarize_validation(results);
  const std::vector<GroupScore> ranking = score_ranking(results);
  const std::vector<RepeatSet> repeats = find_repeats(results);
  write_validation_table(std::cout, results, summary);
  if (!ranking.empty()) write_ranking_table(std::cout, ranking);
  write_repeats_table(std::cout, repeats);
  if (a.has("csv")) write_output_file(a.get("csv"), "--csv", [&](std::ostream& o) { write_validation_csv(o, results); });
  if (a.has("ranking-csv"))
    write_output_file(a.get("ranking-csv"), "--ranking-csv", [&](std::ostream& o) { write_ranking_csv(o, ranking); });
  std::string plotted;
  if (a.has("plot")) {
    const std::string why_not = plot_predicted_vs_measured(results, a.get("plot"));
    if (why_not.empty()) plotted = a.get("plot");
    else std::cerr << "warning: --plot: no plot written: " << why_not << "\n";
  }
  if (a.has("markdown")) {
    const std::string md = a.get("markdown");
    const ReportContext context{files_relative_to(measurements_paths(a), md), command_line(a), a.all("set"),
                                plotted.empty() ? "" : relative_to(plotted, md)};
    write_output_file(md, "--markdown", [&](std::ostream& o) {
      write_validation_markdown(o, results, summary, context);
      if (!ranking.empty()) write_ranking_markdown(o, ranking, results);
      write_repeats_markdown(o, repeats);
    });
  }
  return 0;
}

}  // namespace

Command validate_command() {
  CommandSpec spec;
  spec.name = "validate";
  spec.usage = "[MEASUREMENTS.yaml ...] [options]";
  spec.summary = "simulate published runs and report predicted vs measured iteration time, per split and hardware";
  spec.options = {
      {"only", "ID,ID", "validate only these measurement ids"},
      {"split", "SPLIT", "validate only calibrate or check rows"},
      {"csv", "FILE", "write the per-row results as CSV"},
      {"ranking-csv", "FILE", "write one line per ranking group (rows sharing a `group`) as CSV"},
      {"markdown", "FILE", "write the report as Markdown (e.g. validation/REPORT.md)"},
      {"plot", "FILE.svg", "draw predicted vs measured with gnuplot (skipped with a warning if it is missing)"},
      jobs_option_spec(),
      set_option()};
  spec.details =
      "MEASUREMENTS.yaml defaults to validation/measurements.yaml; several files are read as one set (your own\n"
      "measured runs beside the published ones; ids must be unique across them). Each row's run is simulated\n"
      "in its own process (data-parallel replicas folded when dp > 1 and ep == 1, collectives in bulk mode)\n"
      "and compared on seconds per iteration: error % = (predicted - measured) / measured x 100. Mean and max\n"
      "|error| are reported per split and per hardware; `check` rows never set parameters. Rows that share a\n"
      "`group` (runs that differ only in layout, e.g. validation/ranking.yaml) are also scored as a ranking:\n"
      "Spearman's rho of predicted vs measured time per group, whether the measured fastest is predicted\n"
      "fastest, time errors, and peak-memory errors where memory was measured. Rows whose runs are the same\n"
      "(everything but name and comments) are listed as repeated runs with the spread of their measured\n"
      "times: the measurement's own noise. Exits 0 whatever the errors\n"
      "(it is a report), 2 on bad input.";
  spec.max_positionals = 64;
  return {spec, run_validate};
}

}  // namespace trainsim
