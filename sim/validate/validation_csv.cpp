// The CSV twin of the validation table (one row per measurement, %.6g numbers).
#include <cstdio>

#include "sim/core/number_text.hpp"
#include "sim/core/units.hpp"
#include "sim/validate/validation_report.hpp"

namespace trainsim {
namespace {

std::string num(double value) { return format_number(value); }

}  // namespace

void write_validation_csv(std::ostream& out, const std::vector<RowResult>& rows) {
  out << "id,split,hardware,devices,metric,measured_value,measured_s,predicted_s,error_pct,"
         "predicted_tflops_per_device,measured_mfu,predicted_mfu,peak_memory_gib,memory_capacity_gib,folded";
  for (int c = 0; c < kTimeCategories; ++c) out << ',' << to_string(static_cast<TimeCategory>(c)) << "_s";
  out << '\n';
  for (const auto& r : rows) {
    const auto& m = r.measurement;
    const auto& p = r.prediction;
    out << m.id << ',' << split_name(m.split) << ',' << m.hardware << ',' << r.devices << ',' << metric_name(m.metric)
        << ',' << num(m.value) << ',' << num(r.measured_time) << ',' << num(p.iteration_time) << ','
        << num(r.error_percent) << ',' << num(p.tflops_per_device) << ',' << (m.mfu > 0 ? num(m.mfu) : "") << ','
        << num(p.mfu) << ',' << num(p.peak_memory / kBytesPerGiB) << ',' << num(p.memory_capacity / kBytesPerGiB) << ','
        << (p.folded ? "yes" : "no");
    for (Seconds t : p.breakdown) out << ',' << num(t);
    out << '\n';
  }
}

}  // namespace trainsim
