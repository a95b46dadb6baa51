#include "sim/validate/kernel_report.hpp"

#include "sim/validate/error_stats.hpp"
#include "sim/validate/text_format.hpp"

namespace trainsim {
namespace {

std::string shape_text(const GemmShape& g) {
  return format_text("%lld x %lld x %lld x %lld", static_cast<long long>(g.batch), static_cast<long long>(g.m),
                     static_cast<long long>(g.n), static_cast<long long>(g.k));
}

}  // namespace

void write_gemm_table(std::ostream& out, const std::vector<GemmRowResult>& rows) {
  out << format_text("%6s %7s %7s %7s   %12s %12s %8s\n", "batch", "m", "n", "k", "measured TF", "predicted TF",
                     "error %");
  for (const auto& r : rows) {
    const GemmShape& g = r.measurement.shape;
    out << format_text("%6lld %7lld %7lld %7lld   %12.1f %12.1f %+8.1f\n", static_cast<long long>(g.batch),
                       static_cast<long long>(g.m), static_cast<long long>(g.n), static_cast<long long>(g.k),
                       r.measurement.tflops, r.predicted_tflops, r.error_percent);
  }
}

std::string gemm_summary(const std::vector<GemmRowResult>& rows) {
  std::vector<std::pair<std::string, double>> labelled;
  double sum = 0;
  for (const auto& r : rows) {
    labelled.emplace_back(shape_text(r.measurement.shape), r.error_percent);
    sum += r.error_percent;
  }
  const ErrorSummary s = summarize_errors(labelled);
  if (s.count == 0) return "";
  return format_text("%d GEMMs: mean |error| %.1f%%, max |error| %.1f%% (batch x m x n x k = %s), mean error %+.1f%%",
                     s.count, s.mean_abs_percent, s.max_abs_percent, s.worst.c_str(), sum / s.count);
}

void write_gemm_summary(std::ostream& out, const std::vector<GemmRowResult>& rows) {
  const std::string s = gemm_summary(rows);
  if (!s.empty()) out << s << "\n";
}

void write_gemm_csv(std::ostream& out, const std::vector<GemmRowResult>& rows) {
  out << "batch,m,n,k,measured_tflops,predicted_tflops,measured_us,predicted_us,error_pct\n";
  for (const auto& r : rows) {
    const GemmShape& g = r.measurement.shape;
    out << format_text("%lld,%lld,%lld,%lld,%.6g,%.6g,%.6g,%.6g,%.6g\n", static_cast<long long>(g.batch),
                       static_cast<long long>(g.m), static_cast<long long>(g.n), static_cast<long long>(g.k),
                       r.measurement.tflops, r.predicted_tflops, r.measured_s * 1e6, r.predicted_s * 1e6,
                       r.error_percent);
  }
}

}  // namespace trainsim
