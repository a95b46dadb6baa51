#include "sim/validate/repeat_runs.hpp"

#include <algorithm>

#include "sim/validate/text_format.hpp"

namespace trainsim {
namespace {

bool same_run(const RowResult& a, const RowResult& b) {
  return !a.run_key.empty() && a.run_key == b.run_key && a.measurement.hardware == b.measurement.hardware;
}

RepeatSet make_set(const std::vector<const RowResult*>& rows) {
  RepeatSet s;
  for (const RowResult* r : rows) {
    s.ids.push_back(r->measurement.id);
    s.measured.push_back(r->measured_time);
  }
  const auto [lo, hi] = std::minmax_element(s.measured.begin(), s.measured.end());
  s.spread_percent = *lo > 0 ? (*hi - *lo) / *lo * 100 : 0;
  return s;
}

// "134.020, 120.290"
std::string joined_seconds(const std::vector<Seconds>& times) {
  std::vector<std::string> texts;
  for (Seconds t : times) texts.push_back(format_text("%.3f", t));
  return joined_names(texts);
}

}  // namespace

std::vector<RepeatSet> find_repeats(const std::vector<RowResult>& rows) {
  std::vector<RepeatSet> sets;
  std::vector<bool> taken(rows.size(), false);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (taken[i]) continue;
    std::vector<const RowResult*> same{&rows[i]};
    for (size_t j = i + 1; j < rows.size(); ++j)
      if (!taken[j] && same_run(rows[i], rows[j])) {
        same.push_back(&rows[j]);
        taken[j] = true;
      }
    if (same.size() > 1) sets.push_back(make_set(same));
  }
  return sets;
}

void write_repeats_markdown(std::ostream& out, const std::vector<RepeatSet>& sets) {
  if (sets.empty()) return;
  out << "\n## Repeated runs\n\nRows whose runs are the same (everything but their name and comments), "
         "measured more than once. The spread between their measured times is the measurement's own "
         "noise: an error smaller than it cannot be told from noise, and rows it separates cannot be "
         "ranked reliably.\n\n| rows | measured s | spread % |\n|---|---|---:|\n";
  for (const auto& s : sets)
    out << format_text("| %s | %s | %.1f |\n", joined_names(s.ids).c_str(), joined_seconds(s.measured).c_str(), s.spread_percent);
}

void write_repeats_table(std::ostream& out, const std::vector<RepeatSet>& sets) {
  if (sets.empty()) return;
  out << format_text("\n%-40s %-28s %9s\n", "repeated runs (same run, measured again)", "measured s", "spread %");
  for (const auto& s : sets)
    out << format_text("%-40s %-28s %9.1f\n", joined_names(s.ids).c_str(), joined_seconds(s.measured).c_str(), s.spread_percent);
}

}  // namespace trainsim
