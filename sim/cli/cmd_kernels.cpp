// `trainsim kernels`: the platform's kernel-time model against measured GEMM kernels, and a fit
// of its GEMM parameters to them (validation/kernels/*.yaml).
#include <fstream>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/validation_args.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/validate/accelerator_params.hpp"
#include "sim/validate/kernel_fit.hpp"
#include "sim/validate/kernel_report.hpp"
#include "sim/validate/text_format.hpp"

namespace trainsim {
namespace {

constexpr int kDefaultEvaluations = 600;  // model evaluations of the whole table (each is microseconds)

void print_parameters(const std::string& label, const AcceleratorSpec& acc) {
  std::cout << label;
  for (const auto& p : gemm_fit_parameters()) std::cout << "  " << p << " " << parameter_text(p, get_parameter(acc, p));
  std::cout << "\n";
}

void print_rows(const std::vector<GemmRowResult>& rows) {
  write_gemm_table(std::cout, rows);
  write_gemm_summary(std::cout, rows);
}

std::string fit_command(const ParsedArgs& a, int evaluations) {
  return "trainsim kernels " + a.positionals()[0] + " --platform " + a.get("platform") + " --fit " + a.get("fit") +
         " --evaluations " + std::to_string(evaluations);
}

void print_paste_lines(const ParsedArgs& a, const GemmFit& fit, int evaluations) {
  std::cout << "\nlines to paste under `accelerator:` in platforms/" << a.get("platform") << ".yaml (not written):\n";
  const std::string summary = gemm_summary(fit.rows);
  for (const auto& [param, value] : fit.values) {
    std::cout << "  " << param << ": " << parameter_text(param, value) << "   # fitted: `" << fit_command(a, evaluations)
              << "` to the measured GEMMs of " << a.positionals()[0] << " (" << summary << ")\n";
  }
}

void write_csv(const ParsedArgs& a, const std::vector<GemmRowResult>& rows) {
  if (!a.has("csv")) return;
  std::ofstream out(a.get("csv"));
  if (!out) throw UserError("--csv: cannot write '" + a.get("csv") + "'");
  write_gemm_csv(out, rows);
}

int run_kernels(const ParsedArgs& a) {
  if (!a.has("platform")) throw UserError("--platform NAME is required (the preset whose accelerator ran the kernels)");
  const std::string file = a.positionals()[0];
  const GemmMeasurementSet set = load_gemm_measurements(file);
  const AcceleratorSpec acc = load_platform(a.get("platform")).accelerator;
  if (acc.name != set.accelerator)
    throw UserError(file + ": accelerator '" + set.accelerator + "' does not match platform '" + a.get("platform") +
                    "', whose accelerator is '" + acc.name + "'");
  std::cout << "table      " << file << ": " << set.rows.size() << " GEMMs, " << to_string(set.precision) << ", "
            << set.accelerator << "\nsource     " << set.source << "\n";
  print_parameters("preset    ", acc);
  const std::vector<GemmRowResult> preset_rows = predict_gemms(set, acc);
  if (!a.has("fit")) {
    print_rows(preset_rows);
    write_csv(a, preset_rows);
    return 0;
  }
  std::cout << "at the preset's values: ";
  write_gemm_summary(std::cout, preset_rows);
  const int evaluations = option_int(a, "evaluations", kDefaultEvaluations);
  if (evaluations < 10 || evaluations > 100000)
    throw UserError("--evaluations: expected 10..100000, got " + std::to_string(evaluations));
  const GemmFit fit = fit_gemm_parameters(set, acc, split_list(a.get("fit")), evaluations);
  print_parameters("fitted    ", fit.fitted);
  print_rows(fit.rows);
  write_csv(a, fit.rows);
  print_paste_lines(a, fit, evaluations);
  return 0;
}

}  // namespace

Command kernels_command() {
  CommandSpec spec;
  spec.name = "kernels";
  spec.usage = "TABLE.yaml --platform NAME [options]";
  spec.summary = "compare the platform's GEMM time model with measured GEMM kernels; --fit fits its parameters to them";
  spec.options = {
      {"platform", "NAME", "platform preset whose accelerator ran the kernels (its name must match the table's)"},
      {"fit", "NAME[,NAME]", "parameters to fit: gemm_efficiency, gemm_k_overhead, kernel_overhead (us), memory_efficiency"},
      {"evaluations", "N", "model evaluations of the table for --fit (default 600; each takes microseconds)"},
      {"csv", "FILE", "write the per-GEMM rows (at the fitted values with --fit) as CSV"}};
  spec.details =
      "TABLE.yaml lists GEMMs measured on one accelerator (validation/kernels/*.yaml: batch, m, n, k, tflops).\n"
      "Each is timed with the platform's kernel model, max(FLOP / (peak x gemm_efficiency x wave x depth),\n"
      "bytes / (HBM x memory_efficiency)) + kernel_overhead, where depth = k / (k + gemm_k_overhead), and\n"
      "error % = (predicted - measured) / measured seconds x 100. --fit minimises the mean squared relative\n"
      "error by Nelder-Mead from the preset's values and prints the lines to paste; the preset is not written.\n"
      "Kernel tables pin down how a GEMM's speed depends on its shape; the level GEMMs reach inside a\n"
      "training step is what `trainsim calibrate` fits on published runs.";
  spec.min_positionals = 1;
  spec.max_positionals = 1;
  return {spec, run_kernels};
}

}  // namespace trainsim
