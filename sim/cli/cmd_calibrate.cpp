#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/run_loading.hpp"
#include "sim/cli/validation_args.hpp"
#include "sim/core/error.hpp"
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

CalibrationOptions calibration_options(const ParsedArgs& a) {
  CalibrationOptions o;
  o.platform = a.get("platform");
  o.evaluations = option_int(a, "evaluations", o.evaluations);
  if (o.evaluations < 2 || o.evaluations > 100)
    throw UserError("--evaluations: expected 2..100, got " + std::to_string(o.evaluations));
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

std::string paste_value(const std::string& param, double value) {
  return format_text("%.4g", value) + (param == "kernel_overhead" ? "us" : "");
}

void print_best_rows(const CalibrationResult& r) {
  const ErrorSummary best = row_errors(r.best_rows);
  std::cout << "calibrate rows at the fitted values: mean |error| " << format_text("%.1f", best.mean_abs_percent)
            << "%, max |error| " << format_text("%.1f", best.max_abs_percent) << "% on " << best.worst << "\n";
  write_validation_table(std::cout, r.best_rows, summarize_validation(r.best_rows));
}

void warn_at_edge(const std::string& param, double value) {
  double lo = 0, hi = 0;
  search_interval(param, &lo, &hi);
  if (value - lo < 0.01 || hi - value < 0.01)
    std::cout << "warning: " << param << " = " << value << " lies at the edge of its search interval (" << lo << ", "
              << hi << "): the parameters alone cannot explain the error\n";
}

void print_paste_lines(const std::string& platform, const std::vector<std::pair<std::string, double>>& values,
                       const CalibrationResult& r, const std::string& command, const std::string& file) {
  const ErrorSummary best = row_errors(r.best_rows);
  std::cout << "\nlines to paste under `accelerator:` in platforms/" << platform << ".yaml (not written):\n";
  for (const auto& [param, value] : values) {
    std::cout << "  " << param << ": " << paste_value(param, value) << "   # calibrated: `" << command
              << "` on the calibrate rows " << ids(r.rows) << " of " << file << " (mean |error| "
              << format_text("%.1f", best.mean_abs_percent) << "%, max " << format_text("%.1f", best.max_abs_percent)
              << "%)\n";
  }
  for (const auto& [param, value] : values) warn_at_edge(param, value);
}

std::string command_line(const CalibrationOptions& o, const std::vector<std::string>& params, int rounds) {
  std::string params_text;
  for (const auto& p : params) params_text += (params_text.empty() ? "" : ",") + p;
  std::string out = "trainsim calibrate --platform " + o.platform + " --param " + params_text;
  if (params.size() > 1) out += " --rounds " + std::to_string(rounds);
  for (const auto& s : o.overrides) out += " --set " + s;
  return out;
}

int run_calibrate(const ParsedArgs& a) {
  if (!a.has("platform")) throw UserError("--platform NAME is required (the rows' hardware, e.g. dgx-a100-superpod)");
  const std::string file = measurements_path(a);
  const MeasurementSet set = load_measurements(file);
  const CalibrationOptions o = calibration_options(a);
  const std::vector<std::string> params = split_list(a.get("param", "gemm_efficiency"));
  for (const auto& p : params) require_calibratable(p);
  const int rounds = params.size() > 1 ? option_int(a, "rounds", 2) : 1;
  if (rounds < 1 || rounds > 10) throw UserError("--rounds: expected 1..10, got " + std::to_string(rounds));
  std::cout << "rows used (split calibrate, hardware " << o.platform << "): " << ids(calibration_rows(set, o.platform))
            << "\n" << std::flush;
  auto announce = [&](int round, const std::string& param) {
    double lo = 0, hi = 0;
    search_interval(param, &lo, &hi);
    std::cout << "\nround " << round + 1 << " of " << rounds << ": " << param << " of " << o.platform
              << " by golden-section search over (" << lo << ", " << hi << "), " << o.evaluations << " evaluations\n"
              << "  eval   " << format_text("%10s", param.substr(0, 10).c_str())
              << "   mean sq. rel. err   mean |e| %   max |e| %\n"
              << std::flush;
  };
  const JointCalibrationResult r = calibrate_parameters(set, o, params, rounds, announce);
  std::cout << "\nbest:";
  for (const auto& [param, value] : r.values) std::cout << " " << param << " = " << format_text("%.6g", value);
  std::cout << "\n";
  print_best_rows(r.last);
  print_paste_lines(o.platform, r.values, r.last, command_line(o, params, rounds), file);
  return 0;
}

}  // namespace

Command calibrate_command() {
  CommandSpec spec;
  spec.name = "calibrate";
  spec.usage = "[MEASUREMENTS.yaml] --platform NAME [options]";
  spec.summary = "fit efficiency parameters of a platform to its calibrate rows (prints the values; writes nothing)";
  spec.options = {
      {"platform", "NAME", "platform preset whose calibrate rows are used (the rows' hardware)"},
      {"param", "NAME[,NAME]", "accelerator parameter(s) to fit: gemm_efficiency (default), attention_efficiency, memory_efficiency, kernel_overhead (us)"},
      {"rounds", "N", "with several parameters: coordinate-descent rounds, each fitting every parameter in turn (default 2)"},
      {"evaluations", "N", "number of simulations of the row set per one-parameter search (default 12)"},
      jobs_option_spec(),
      set_option()};
  spec.details =
      "Minimises the mean squared relative error of predicted vs measured seconds per iteration over the\n"
      "platform's `calibrate` rows (never `check` rows) by golden-section search over (0.3, 1.0); each\n"
      "evaluation simulates every such row with --set platform.accelerator.PARAM=x. The preset is not changed:\n"
      "the fitted value is printed with the rows it came from, ready to paste. With several parameters\n"
      "(--param gemm_efficiency,memory_efficiency) each round fits every parameter in turn, the others held at\n"
      "their latest values (coordinate descent); the first fit of each starts from the preset's values.";
  spec.max_positionals = 1;
  return {spec, run_calibrate};
}

}  // namespace trainsim
