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
  o.param = a.get("param", o.param);
  search_interval(o.param, &o.lo, &o.hi);
  o.evaluations = option_int(a, "evaluations", o.evaluations);
  if (o.evaluations < 2 || o.evaluations > 100)
    throw UserError("--evaluations: expected 2..100, got " + std::to_string(o.evaluations));
  o.overrides = a.all("set");
  o.jobs = jobs_option(a, 2);
  o.on_evaluation_start = [p = o.param](int i, double x) {
    progress_line(format_text("evaluation %d: %s = %.6g ...", i + 1, p.c_str(), x));
  };
  o.on_evaluation_done = [](int i, double x, double msre, const std::vector<RowResult>& rows) {
    const ErrorSummary s = row_errors(rows);
    std::cout << format_text("  %3d   %10.6g   %14.6g   %8.1f   %8.1f\n", i + 1, x, msre, s.mean_abs_percent,
                             s.max_abs_percent)
              << std::flush;
  };
  return o;
}

void print_result(const CalibrationOptions& o, const CalibrationResult& r, const std::string& file) {
  const ErrorSummary best = row_errors(r.best_rows);
  std::cout << "\nbest: " << o.param << " = " << format_text("%.6g", r.search.best_x) << " (mean squared relative error "
            << format_text("%.6g", r.search.best_value) << "; calibrate rows: mean |error| "
            << format_text("%.1f", best.mean_abs_percent) << "%, max |error| " << format_text("%.1f", best.max_abs_percent)
            << "% on " << best.worst << ")\n\nrows at the best value:\n";
  write_validation_table(std::cout, r.best_rows, summarize_validation(r.best_rows));
  std::cout << "\nline to paste under `accelerator:` in platforms/" << o.platform << ".yaml (not written):\n  "
            << o.param << ": " << format_text("%.4g", r.search.best_x) << (o.param == "kernel_overhead" ? "us" : "")
            << "   # calibrated: `trainsim calibrate --platform "
            << o.platform << " --param " << o.param << "` on the calibrate rows " << ids(r.rows) << " of " << file
            << " (mean |error| " << format_text("%.1f", best.mean_abs_percent) << "%, max "
            << format_text("%.1f", best.max_abs_percent) << "%)\n";
  if (r.search.best_x - o.lo < 0.01 || o.hi - r.search.best_x < 0.01)
    std::cout << "warning: the best value lies at the edge of the search interval (" << o.lo << ", " << o.hi
              << "): the parameter alone cannot explain the error\n";
}

int run_calibrate(const ParsedArgs& a) {
  if (!a.has("platform")) throw UserError("--platform NAME is required (the rows' hardware, e.g. dgx-a100-superpod)");
  const std::string file = measurements_path(a);
  const MeasurementSet set = load_measurements(file);
  const CalibrationOptions o = calibration_options(a);
  require_calibratable(o.param);
  const std::string used = ids(calibration_rows(set, o.platform));
  std::cout << "rows used (split calibrate, hardware " << o.platform << "): " << used << "\n";
  std::cout << "calibrating " << o.param << " of " << o.platform << " by golden-section search over (" << o.lo
            << ", " << o.hi << "), " << o.evaluations << " evaluations\n"
            << "  eval   " << format_text("%10s", o.param.substr(0, 10).c_str())
            << "   mean sq. rel. err   mean |e| %   max |e| %\n"
            << std::flush;
  const CalibrationResult r = calibrate_parameter(set, o);
  print_result(o, r, file);
  return 0;
}

}  // namespace

Command calibrate_command() {
  CommandSpec spec;
  spec.name = "calibrate";
  spec.usage = "[MEASUREMENTS.yaml] --platform NAME [options]";
  spec.summary = "fit one efficiency parameter of a platform to its calibrate rows (prints the value; writes nothing)";
  spec.options = {
      {"platform", "NAME", "platform preset whose calibrate rows are used (the rows' hardware)"},
      {"param", "NAME", "accelerator parameter to fit: gemm_efficiency (default), attention_efficiency, memory_efficiency, kernel_overhead (us)"},
      {"evaluations", "N", "number of simulations of the row set (default 12)"},
      jobs_option_spec(),
      set_option()};
  spec.details =
      "Minimises the mean squared relative error of predicted vs measured seconds per iteration over the\n"
      "platform's `calibrate` rows (never `check` rows) by golden-section search over (0.3, 1.0); each\n"
      "evaluation simulates every such row with --set platform.accelerator.PARAM=x. The preset is not changed:\n"
      "the fitted value is printed with the rows it came from, ready to paste.";
  spec.max_positionals = 1;
  return {spec, run_calibrate};
}

}  // namespace trainsim
