#include "sim/validate/error_stats.hpp"

#include <cassert>
#include <cmath>
#include <map>

namespace trainsim {

double percent_error(double predicted, double measured) { return (predicted - measured) / measured * 100.0; }

ErrorSummary summarize_errors(const std::vector<std::pair<std::string, double>>& labelled_errors) {
  ErrorSummary s;
  double sum = 0;
  for (const auto& [label, error] : labelled_errors) {
    const double a = std::fabs(error);
    sum += a;
    if (s.count == 0 || a > s.max_abs_percent) {
      s.max_abs_percent = a;
      s.worst = label;
    }
    ++s.count;
  }
  if (s.count > 0) s.mean_abs_percent = sum / s.count;
  return s;
}

std::vector<GroupSummary> summarize_by(const std::vector<std::string>& keys,
                                       const std::vector<std::pair<std::string, double>>& labelled_errors) {
  assert(keys.size() == labelled_errors.size());
  std::map<std::string, std::vector<std::pair<std::string, double>>> groups;
  for (size_t i = 0; i < keys.size(); ++i) groups[keys[i]].push_back(labelled_errors[i]);
  std::vector<GroupSummary> out;
  for (const auto& [key, rows] : groups) out.push_back({key, summarize_errors(rows)});
  return out;
}

double mean_squared_relative_error(const std::vector<std::pair<double, double>>& predicted_measured) {
  if (predicted_measured.empty()) return 0;
  double sum = 0;
  for (const auto& [predicted, measured] : predicted_measured) {
    const double r = (predicted - measured) / measured;
    sum += r * r;
  }
  return sum / static_cast<double>(predicted_measured.size());
}

}  // namespace trainsim
