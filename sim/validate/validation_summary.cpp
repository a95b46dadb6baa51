#include "sim/validate/validation_report.hpp"

#include <cstdio>

namespace trainsim {

std::string signed_percent(double error_percent) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f", error_percent);
  return buf;
}

ValidationSummary summarize_validation(const std::vector<RowResult>& rows) {
  std::vector<std::pair<std::string, double>> errors;
  std::vector<std::string> split, split_hw, hw, split_kind, kind;
  for (const auto& r : rows) {
    errors.emplace_back(r.measurement.id, r.error_percent);
    split.emplace_back(split_name(r.measurement.split));
    split_hw.push_back(split.back() + " / " + r.measurement.hardware);
    hw.push_back(r.measurement.hardware);
    split_kind.push_back(split.back() + " / " + r.kind);
    kind.push_back(r.kind);
  }
  return {summarize_by(split, errors), summarize_by(split_hw, errors), summarize_by(hw, errors),
          summarize_by(split_kind, errors), summarize_by(kind, errors)};
}

}  // namespace trainsim
