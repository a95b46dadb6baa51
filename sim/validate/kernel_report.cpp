#include "sim/validate/kernel_report.hpp"

#include <set>

#include "sim/validate/error_stats.hpp"
#include "sim/validate/text_format.hpp"

namespace trainsim {
namespace {

constexpr double kMicrosecond = 1e-6;

long long ll(int64_t v) { return static_cast<long long>(v); }

// The rate a row ran at: TFLOP/s for kernels that compute, TB/s for streams.
std::string rate_text(const KernelRowResult& r, double seconds) {
  if (r.measurement.kind == MeasuredKind::kStream) return format_text("%7.2f TB/s", r.kernel.bytes / seconds / 1e12);
  return format_text("%7.1f TF/s", r.kernel.flops / seconds / 1e12);
}

std::vector<KernelRowResult> of_kind(const std::vector<KernelRowResult>& rows, MeasuredKind kind) {
  std::vector<KernelRowResult> out;
  for (const auto& r : rows)
    if (r.measurement.kind == kind) out.push_back(r);
  return out;
}

}  // namespace

const char* kind_name(MeasuredKind kind) {
  switch (kind) {
    case MeasuredKind::kGemm: return "gemm";
    case MeasuredKind::kAttention: return "attention";
    case MeasuredKind::kStream: break;
  }
  return "stream";
}

std::string measurement_label(const KernelMeasurement& m) {
  switch (m.kind) {
    case MeasuredKind::kGemm:
      return format_text("%lld x %lld x %lld x %lld", ll(m.gemm.batch), ll(m.gemm.m), ll(m.gemm.n), ll(m.gemm.k));
    case MeasuredKind::kAttention: {
      const AttentionShape& a = m.attention;
      std::string text = format_text("%s %lld x %lld x %lld x %lld", a.backward ? "bwd" : "fwd", ll(a.batch),
                                     ll(a.heads), ll(a.seq), ll(a.head_dim));
      if (a.kv_heads > 0 && a.kv_heads != a.heads) text += format_text(" kv=%lld", ll(a.kv_heads));
      if (a.window > 0) text += format_text(" w=%lld", ll(a.window));
      return a.dropout > 0 ? text + format_text(" p=%g", a.dropout) : text;
    }
    case MeasuredKind::kStream: break;
  }
  return m.op;
}

void write_kernel_table(std::ostream& out, const std::vector<KernelRowResult>& rows) {
  out << format_text("%-9s %-36s %11s %11s %12s %12s %8s\n", "kind", "what", "measured us", "predicted us",
                     "measured", "predicted", "error %");
  for (const auto& r : rows) {
    out << format_text("%-9s %-36s %11.1f %11.1f %12s %12s %+8.1f\n", kind_name(r.measurement.kind),
                       measurement_label(r.measurement).c_str(), r.measurement.measured_s / kMicrosecond,
                       r.predicted_s / kMicrosecond, rate_text(r, r.measurement.measured_s).c_str(),
                       rate_text(r, r.predicted_s).c_str(), r.error_percent);
  }
}

std::string kernel_summary(const std::vector<KernelRowResult>& rows, const std::string& kind) {
  std::vector<std::pair<std::string, double>> labelled;
  double sum = 0;
  for (const auto& r : rows) {
    labelled.emplace_back(measurement_label(r.measurement), r.error_percent);
    sum += r.error_percent;
  }
  const ErrorSummary s = summarize_errors(labelled);
  if (s.count == 0) return "";
  return format_text("%d %s: mean |error| %.1f%%, max |error| %.1f%% (%s), mean error %+.1f%%", s.count, kind.c_str(),
                     s.mean_abs_percent, s.max_abs_percent, s.worst.c_str(), sum / s.count);
}

void write_kernel_summaries(std::ostream& out, const std::vector<KernelRowResult>& rows) {
  std::set<MeasuredKind> kinds;
  for (const auto& r : rows) kinds.insert(r.measurement.kind);
  for (MeasuredKind kind : kinds) out << kernel_summary(of_kind(rows, kind), kind_name(kind)) << "\n";
  if (kinds.size() > 1) out << kernel_summary(rows, "kernels") << "\n";
}

void write_kernel_csv(std::ostream& out, const std::vector<KernelRowResult>& rows) {
  out << "kind,what,flops,bytes,measured_us,predicted_us,error_pct\n";
  for (const auto& r : rows) {
    out << format_text("%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g\n", kind_name(r.measurement.kind),
                       csv_field(measurement_label(r.measurement)).c_str(), r.kernel.flops, r.kernel.bytes,
                       r.measurement.measured_s / kMicrosecond, r.predicted_s / kMicrosecond, r.error_percent);
  }
}

}  // namespace trainsim
