#include <algorithm>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/run_loading.hpp"
#include "sim/cli/validation_args.hpp"
#include "sim/core/error.hpp"
#include "sim/validate/accelerator_params.hpp"
#include "sim/validate/calibrate.hpp"
#include "sim/validate/text_format.hpp"
#include "sim/validate/validation_report.hpp"

namespace trainsim {
namespace {

ErrorSummary row_errors(const std::vector<RowResult>& rows) {
  std::vector<std::pair<std::string, double>> e;
  for (const auto& r : rows) e.emplace_back(r.measurement.id, r.error_percent);
  return summarize_errors(e);
}

std::string ids(const std::vector<Measurement>& rows) {
  std::string out;
  for (const auto& m : rows) out += (out.empty() ? "" : ", ") + m.id;
  return out;
}

constexpr int kJointEvaluationsPerParameter = 20;  // Nelder-Mead budget per fitted parameter

void print_best_rows(const std::vector<RowResult>& rows, Split split) {
  const ErrorSummary best = row_errors(rows);
  std::cout << split_name(split) << " rows at the fitted values: mean |error| "
            << format_text("%.1f", best.mean_abs_percent) << "%, max |error| "
            << format_text("%.1f", best.max_abs_percent) << "% on " << best.worst << "\n";
  write_validation_table(std::cout, rows, summarize_validation(rows));
}

void warn_at_edge(const std::string& param, double value) {
  double lo = 0, hi = 0;
  parameter_interval(param, &lo, &hi);
  if (value - lo < 0.01 || hi - value < 0.01)
    std::cout << "warning: " << param << " = " << value << " lies at the edge of its search interval (" << lo << ", "
              << hi << "): the parameters alone cannot explain the error\n";
}

void print_paste_lines(const std::string& platform, const std::vector<std::pair<std::string, double>>& values,
                       const std::vector<Measurement>& rows, const std::vector<RowResult>& best_rows,
                       const std::string& command, const std::string& file) {
  const ErrorSummary best = row_errors(best_rows);
  std::cout << "\nlines to paste under `accelerator:` in platforms/" << platform << ".yaml (not written):\n";
  for (const auto& [param, value] : values) {
    std::cout << "  " << param << ": " << parameter_text(param, value) << "   # calibrated: `" << command
              << "` on the calibrate rows " << ids(rows) << " of " << file << " (mean |error| "
              << format_text("%.1f", best.mean_abs_percent) << "%, max " << format_text("%.1f", best.max_abs_percent)
              << "%)\n";
  }
  for (const auto& [param, value] : values) warn_at_edge(param, value);
}

CalibrationOptions calibration_options(const ParsedArgs& a) {
  CalibrationOptions o;
  o.platform = a.get("platform");
  o.split = split_option(a).value_or(Split::kCalibrate);
  o.evaluations = option_int(a, "evaluations", o.evaluations);
  if (o.evaluations < 2 || o.evaluations > 200)
    throw UserError("--evaluations: expected 2..200, got " + std::to_string(o.evaluations));
  o.overrides = a.all("set");
  o.jobs = jobs_option(a, 2);
  o.on_evaluation_start = [](int i, double x) { progress_line(format_text("evaluation %d: x = %.6g ...", i + 1, x)); };
  o.on_evaluation_done = [](int i, double x, double msre, const std::vector<RowResult>& rows) {
    const ErrorSummary s = row_errors(rows);
    std::cout << format_text("  %3d   %10.6g   %14.6g   %8.1f   %8.1f\n", i + 1, x, msre, s.mean_abs_percent,
                             s.max_abs_percent)
              << std::flush;
  };
  return o;
}

// What either search found: the fitted values and the rows at them.
struct Fit {
  std::vector<std::pair<std::string, double>> values;
  std::vector<Measurement> rows;
  std::vector<RowResult> best_rows;
};

Fit fit_one(const MeasurementSet& set, CalibrationOptions o, const std::string& param) {
  o.param = param;
  parameter_interval(param, &o.lo, &o.hi);
  std::cout << "calibrating " << param << " of " << o.platform << " by golden-section search over (" << o.lo << ", "
            << o.hi << "), " << o.evaluations << " evaluations\n  eval   " << format_text("%10s", param.substr(0, 10).c_str())
            << "   mean sq. rel. err   mean |e| %   max |e| %\n"
            << std::flush;
  const CalibrationResult r = calibrate_parameter(set, o);
  return {{{param, r.search.best_x}}, r.rows, r.best_rows};
}

Fit fit_several(const MeasurementSet& set, const CalibrationOptions& o, const std::vector<std::string>& params,
                int evaluations) {
  std::cout << "calibrating " << params.size() << " parameters of " << o.platform << " together (Nelder-Mead from the"
            << " preset's values), " << evaluations << " evaluations\n  eval";
  for (const auto& p : params) std::cout << "   " << format_text("%10s", p.substr(0, 10).c_str());
  std::cout << "   mean sq. rel. err   mean |e| %   max |e| %\n" << std::flush;
  auto line = [](int i, const std::vector<double>& x, double msre, const std::vector<RowResult>& rows) {
    const ErrorSummary e = row_errors(rows);
    std::cout << format_text("  %3d", i + 1);
    for (double v : x) std::cout << format_text("   %10.6g", v);
    std::cout << format_text("   %14.6g   %8.1f   %8.1f\n", msre, e.mean_abs_percent, e.max_abs_percent) << std::flush;
    progress_line(format_text("evaluation %d done", i + 1));
  };
  const JointCalibrationResult r = calibrate_parameters(set, o, params, evaluations, line);
  return {r.values, r.rows, r.best_rows};
}

std::string command_line(const CalibrationOptions& o, const std::vector<std::string>& params, int evaluations) {
  std::string out = "trainsim calibrate --platform " + o.platform + " --param ";
  for (size_t i = 0; i < params.size(); ++i) out += (i ? "," : "") + params[i];
  out += " --evaluations " + std::to_string(evaluations);
  for (const auto& s : o.overrides) out += " --set " + s;
  if (o.split != Split::kCalibrate) out += std::string(" --split ") + split_name(o.split);
  return out;
}

// A fit on check rows answers "what would these rows want?" and nothing else: no paste lines.
void print_diagnosis_note(const std::string& command) {
  std::cout << "\ndiagnosis only (`" << command << "`): these values were fitted on check rows, which must never\n"
            << "set a parameter; they show how far the check rows sit from the calibrate rows, not a preset value.\n";
}

int run_calibrate(const ParsedArgs& a) {
  if (!a.has("platform")) throw UserError("--platform NAME is required (the rows' hardware, e.g. dgx-a100-superpod)");
  const MeasurementSet set = load_measurement_args(a);
  const std::string& file = set.file;
  const CalibrationOptions o = calibration_options(a);
  const std::vector<std::string> params = split_list(a.get("param", "gemm_efficiency"));
  require_parameters(params, calibratable_parameters(), "--param");
  // --evaluations is read (and range-checked) once, in calibration_options; only its default differs.
  const int evaluations = params.size() == 1 || a.has("evaluations")
                              ? o.evaluations
                              : kJointEvaluationsPerParameter * static_cast<int>(params.size());
  const std::string rows = ids(calibration_rows(set, o.platform, o.split));  // may refuse: before any output
  std::cout << "rows used (split " << split_name(o.split) << ", hardware " << o.platform << "): " << rows << "\n"
            << std::flush;
  const Fit fit = params.size() == 1 ? fit_one(set, o, params[0]) : fit_several(set, o, params, evaluations);
  std::cout << "\nbest:";
  for (const auto& [param, value] : fit.values) std::cout << " " << param << " = " << format_text("%.6g", value);
  std::cout << "\n";
  print_best_rows(fit.best_rows, o.split);
  if (o.split == Split::kCheck) {
    print_diagnosis_note(command_line(o, params, evaluations));
    return 0;
  }
  print_paste_lines(o.platform, fit.values, fit.rows, fit.best_rows, command_line(o, params, evaluations), file);
  return 0;
}

}  // namespace

Command calibrate_command() {
  CommandSpec spec;
  spec.name = "calibrate";
  spec.usage = "[MEASUREMENTS.yaml ...] --platform NAME [options]";
  spec.summary = "fit efficiency parameters of a platform to its calibrate rows (prints the values; writes nothing)";
  spec.options = {
      {"platform", "NAME", "platform preset whose calibrate rows are used (the rows' hardware)"},
      {"param", "NAME[,NAME]",
       "accelerator parameter(s) to fit: " + joined_names(calibratable_parameters()) +
           " (default gemm_efficiency; kernel_overhead in us)"},
      {"evaluations", "N", "simulations of the row set: default 12 for one parameter, 20 per parameter for several"},
      {"split", "SPLIT", "calibrate (default), or check to diagnose what the check rows would want (no paste lines)"},
      jobs_option_spec(),
      set_option()};
  spec.details =
      "Minimises the mean squared relative error of predicted vs measured seconds per iteration over the\n"
      "platform's `calibrate` rows (never `check` rows) by golden-section search over (0.3, 1.0); each\n"
      "evaluation simulates every such row with --set platform.accelerator.PARAM=x. The preset is not changed:\n"
      "the fitted value is printed with the rows it came from, ready to paste. Several parameters\n"
      "(--param gemm_efficiency,memory_efficiency) are fitted together by Nelder-Mead, starting from the preset's\n"
      "values: one parameter at a time would crawl along the valley where two efficiencies trade off.\n"
      "--split check fits the check rows instead, as a diagnosis only (how far they sit from the calibrate\n"
      "rows); it prints no lines to paste, since check rows never set a parameter.";
  spec.max_positionals = 64;
  return {spec, run_calibrate};
}

}  // namespace trainsim
