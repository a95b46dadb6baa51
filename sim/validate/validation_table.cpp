// The text table `trainsim validate` prints.
#include "sim/core/units.hpp"
#include "sim/validate/text_format.hpp"
#include "sim/validate/validation_report.hpp"

namespace trainsim {
namespace {


void write_group_table(std::ostream& out, const char* title, const std::vector<GroupSummary>& groups) {
  out << title << "\n";
  for (const auto& g : groups)
    out << format_text("  %-36s %3d rows   mean |error| %6.1f%%   max |error| %6.1f%% (%s)\n", g.key.c_str(),
                  g.summary.count, g.summary.mean_abs_percent, g.summary.max_abs_percent, g.summary.worst.c_str());
}

}  // namespace

void write_validation_table(std::ostream& out, const std::vector<RowResult>& rows, const ValidationSummary& s) {
  out << format_text("%-18s %-9s %-18s %7s %11s %11s %8s %16s\n", "id", "split", "hardware", "devices", "measured s",
                "predicted s", "error %", "peak mem GiB");
  for (const auto& r : rows) {
    const auto& p = r.prediction;
    const bool oom = p.peak_memory > p.memory_capacity;
    out << format_text("%-18s %-9s %-18s %7d %11.3f %11.3f %8s %7.1f of %4.0f%s\n", r.measurement.id.c_str(),
                  split_name(r.measurement.split), r.measurement.hardware.c_str(), r.devices, r.measured_time,
                  p.iteration_time, signed_percent(r.error_percent).c_str(), p.peak_memory / kBytesPerGiB,
                  p.memory_capacity / kBytesPerGiB, oom ? " OOM" : "");
  }
  out << "\n";
  write_group_table(out, "error per split:", s.by_split);
  write_group_table(out, "error per split and hardware:", s.by_split_hardware);
  write_group_table(out, "error per hardware (both splits):", s.by_hardware);
  write_group_table(out, "error per split and kind:", s.by_split_kind);
  write_group_table(out, "error per kind (both splits):", s.by_kind);
}

}  // namespace trainsim
