// `trainsim kernels`: the platform's kernel-time model against measured kernels (GEMMs, fused
// attention, memory-bound streams), and a fit of its parameters to them (validation/kernels/*.yaml).
#include <fstream>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/validation_args.hpp"
#include "sim/config/kernel_measurements.hpp"
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
  for (const auto& p : accelerator_parameter_names()) std::cout << "  " << p << " " << parameter_text(p, get_parameter(acc, p));
  std::cout << "\n";
}

void print_rows(const std::vector<KernelRowResult>& rows) {
  write_kernel_table(std::cout, rows);
  write_kernel_summaries(std::cout, rows);
}

std::string tables_text(const ParsedArgs& a) {
  std::string text;
  for (const auto& t : a.positionals()) text += (text.empty() ? "" : " ") + t;
  return text;
}

std::string fit_command(const ParsedArgs& a, int evaluations) {
  return "trainsim kernels " + tables_text(a) + " --platform " + a.get("platform") + " --fit " + a.get("fit") +
         " --evaluations " + std::to_string(evaluations);
}

void print_paste_lines(const ParsedArgs& a, const KernelFit& fit, int evaluations) {
  std::cout << "\nlines to paste under `accelerator:` in platforms/" << a.get("platform") << ".yaml (not written):\n";
  const std::string summary = kernel_summary(fit.rows, "kernels");
  for (const auto& [param, value] : fit.values) {
    std::cout << "  " << param << ": " << parameter_text(param, value) << "   # fitted: `" << fit_command(a, evaluations)
              << "` to the measured kernels of " << tables_text(a) << " (" << summary << ")\n";
  }
}

void write_csv(const ParsedArgs& a, const std::vector<KernelRowResult>& rows) {
  if (!a.has("csv")) return;
  write_output_file(a.get("csv"), "--csv", [&](std::ostream& out) { write_kernel_csv(out, rows); });
}

// Every table must be of the platform's accelerator and of one precision; their rows in order.
KernelMeasurementSet load_tables(const ParsedArgs& a, const AcceleratorSpec& acc) {
  KernelMeasurementSet all;
  for (const auto& file : a.positionals()) {
    const KernelMeasurementSet set = load_kernel_measurements(file);
    if (acc.name != set.accelerator)
      throw UserError(file + ": accelerator '" + set.accelerator + "' does not match platform '" + a.get("platform") +
                      "', whose accelerator is '" + acc.name + "'");
    if (!all.rows.empty() && set.precision != all.precision)
      throw UserError(file + ": precision " + to_string(set.precision) + " differs from " + all.file + "'s " +
                      to_string(all.precision) + " (fit one precision at a time)");
    std::cout << "table      " << file << ": " << set.rows.size() << " kernels, " << to_string(set.precision) << ", "
              << set.accelerator << "\nsource     " << set.source << "\n";
    if (all.rows.empty()) all = set;
    else all.rows.insert(all.rows.end(), set.rows.begin(), set.rows.end());
  }
  return all;
}

int run_kernels(const ParsedArgs& a) {
  if (!a.has("platform")) throw UserError("--platform NAME is required (the preset whose accelerator ran the kernels)");
  const int evaluations = option_int(a, "evaluations", kDefaultEvaluations);
  if (evaluations < 10 || evaluations > 100000)
    throw UserError("--evaluations: expected 10..100000, got " + std::to_string(evaluations));
  const AcceleratorSpec acc = load_platform(a.get("platform")).accelerator;
  const KernelMeasurementSet set = load_tables(a, acc);
  if (a.has("fit")) require_fittable(set, acc, split_list(a.get("fit")));
  print_parameters("preset    ", acc);
  const std::vector<KernelRowResult> preset_rows = predict_kernels(set, acc);
  if (!a.has("fit")) {
    print_rows(preset_rows);
    write_csv(a, preset_rows);
    return 0;
  }
  std::cout << "at the preset's values:\n";
  write_kernel_summaries(std::cout, preset_rows);
  const KernelFit fit = fit_kernel_parameters(set, acc, split_list(a.get("fit")), evaluations);
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
  spec.usage = "TABLE.yaml [TABLE.yaml ...] --platform NAME [options]";
  spec.summary = "compare the platform's kernel time model with measured kernels; --fit fits its parameters to them";
  spec.options = {
      {"platform", "NAME", "platform preset whose accelerator ran the kernels (its name must match the tables')"},
      {"fit", "NAME[,NAME]",
       "parameters to fit: " + joined_names(accelerator_parameter_names()) +
           " (kernel_overhead in us, dropout_rng_rate in 1e12/s)"},
      {"evaluations", "N", "model evaluations of the tables for --fit (default 600; each takes microseconds)"},
      {"csv", "FILE", "write the per-kernel rows (at the fitted values with --fit) as CSV"}};
  spec.details =
      "Each TABLE.yaml lists kernels measured on one accelerator (validation/kernels/*.yaml): GEMMs (batch, m,\n"
      "n, k, tflops), fused causal attention (pass, batch, heads, seq, head_dim, us; optional kv_heads, a\n"
      "sliding window and dropout) and memory-bound streams (op, bytes, us, kernels). Each row is timed as\n"
      "the catalogue kernel it is, with the platform's model: max(FLOP / (peak x efficiency), bytes / (HBM x\n"
      "memory_efficiency)) + kernel_overhead per launch, where a GEMM's efficiency is gemm_efficiency x wave\n"
      "x k / (k + gemm_k_overhead) and attention's is attention_efficiency (attention_backward_efficiency for\n"
      "its backward) over (L + L0) / L + U (Lmax + L0) / (tiles L) for queries attending L keys on average\n"
      "(with a window W, the key blocks of W keys back plus the diagonal), Lmax in the longest query tile, L0 =\n"
      "attention_k_overhead, tiles = batch x heads x seq / 128 spread over U = compute_units (the last tile's\n"
      "tail), plus its dropout's random numbers / dropout_rng_rate; error % = (predicted - measured) /\n"
      "measured seconds x 100. Several tables are compared (and fitted) together. --fit minimises the mean\n"
      "squared relative error by Nelder-Mead from the preset's values and prints the lines to paste; the\n"
      "preset is not written. Kernel tables pin down the isolated kernels; the level GEMMs reach inside a\n"
      "training step is what `trainsim calibrate` fits on published runs.";
  spec.min_positionals = 1;
  spec.max_positionals = 16;
  return {spec, run_kernels};
}

}  // namespace trainsim
