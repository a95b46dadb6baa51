// The validation report: per-row table and error summaries as text (stdout), CSV and Markdown.
// Deterministic: the same results give byte-identical files (no timings, no dates).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "sim/validate/error_stats.hpp"
#include "sim/validate/validation_run.hpp"

namespace trainsim {

struct ValidationSummary {
  std::vector<GroupSummary> by_split;           // "calibrate", "check"
  std::vector<GroupSummary> by_split_hardware;  // "check / dgx-a100-superpod", ...
  std::vector<GroupSummary> by_hardware;        // all splits together
  std::vector<GroupSummary> by_split_kind;      // "check / FP8 dense", ... (row_kind)
  std::vector<GroupSummary> by_kind;            // all splits together
};

[[nodiscard]] ValidationSummary summarize_validation(const std::vector<RowResult>& rows);

// What the Markdown report says about how it was made.
struct ReportContext {
  std::string measurements_file;     // as given on the command line (or the default)
  std::string command;               // the command line that produced it
  std::vector<std::string> overrides;
  std::string plot_file;             // "" when no plot was made
};

void write_validation_table(std::ostream& out, const std::vector<RowResult>& rows, const ValidationSummary& s);
// id,split,hardware,devices,metric,measured_value,measured_s,predicted_s,error_pct,
// predicted_tflops_per_device,measured_mfu,predicted_mfu,peak_memory_gib,memory_capacity_gib,folded,
// then the predicted breakdown in seconds: forward_s,backward_s,...,idle_s (TimeCategory order)
void write_validation_csv(std::ostream& out, const std::vector<RowResult>& rows);
void write_validation_markdown(std::ostream& out, const std::vector<RowResult>& rows, const ValidationSummary& s,
                               const ReportContext& context);

// "+3.2", "-12.0": error with sign and one decimal.
[[nodiscard]] std::string signed_percent(double error_percent);

}  // namespace trainsim
