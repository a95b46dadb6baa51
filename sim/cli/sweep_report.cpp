#include "sim/cli/sweep_report.hpp"

#include <algorithm>

#include "sim/core/text_list.hpp"
#include "sim/sweep/sweep_table.hpp"

namespace trainsim {
namespace {

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string md_cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// "5 points: the cartesian product of ..." / "zipped lists of ..."
std::string description(const SweepReport& r) {
  std::vector<std::string> axes;
  for (const VaryAxis& a : r.axes) axes.push_back(a.key + " (" + std::to_string(a.values.size()) + " values)");
  std::string text = std::to_string(r.results.size()) + " points, " +
                     (r.axes.size() == 1 ? "varying " : r.zip ? "zipped lists of " : "the cartesian product of ") +
                     join_text(axes, r.zip ? " and " : " x ");
  if (!r.sets.empty()) text += "; every point with " + join_text(r.sets);
  text += r.search ? "; strategy re-planned at every point by the search (its top " + std::to_string(r.top) +
                         " replayed, the fastest kept)"
                   : "; the run's own strategy";
  return text;
}

}  // namespace

void print_sweep_table(std::ostream& out, const SweepReport& r) {
  const SweepTable t = sweep_table(r.axes, r.results, TableStyle::kReadable);
  std::vector<size_t> width(t.header.size());
  for (size_t c = 0; c < width.size(); ++c) {
    width[c] = t.header[c].size();
    for (const auto& row : t.rows) width[c] = std::max(width[c], row[c].size());
  }
  out << "sweep of run '" << r.run_name << "': " << description(r) << "\n\n";
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c)
      line += (c ? "  " : "") + row[c] + std::string(c + 1 < row.size() ? width[c] - row[c].size() : 0, ' ');
    out << line << "\n";
  };
  print_row(t.header);
  for (const auto& row : t.rows) print_row(row);
  if (!r.search) return;
  out << "\nwinners (which strategy is fastest where):\n";
  for (const std::string& line : strategy_win_lines(r.results)) out << "  " << line << "\n";
}

void write_sweep_csv(std::ostream& out, const SweepReport& r) {
  const SweepTable t = sweep_table(r.axes, r.results, TableStyle::kData);
  auto write_row = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < row.size(); ++c) out << (c ? "," : "") << csv_cell(row[c]);
    out << "\n";
  };
  write_row(t.header);
  for (const auto& row : t.rows) write_row(row);
}

void write_sweep_markdown(std::ostream& out, const SweepReport& r) {
  const SweepTable t = sweep_table(r.axes, r.results, TableStyle::kReadable);
  out << "## Sweep of run `" << r.run_name << "`\n\n" << description(r) << ". Times are seconds per iteration; the "
      << "breakdown is the mean per device (compute = forward + backward + recompute + optimizer; exposed "
         "communication per dimension; bubble and idle); memory is the fullest stage's device against its capacity.\n\n|";
  for (const std::string& h : t.header) out << " " << md_cell(h) << " |";
  out << "\n|";
  for (size_t c = 0; c < t.header.size(); ++c) out << (c <= r.axes.size() || c == r.axes.size() + 1 ? "---|" : "---:|");
  out << "\n";
  for (const auto& row : t.rows) {
    out << "|";
    for (const std::string& cell : row) out << " " << md_cell(cell) << " |";
    out << "\n";
  }
  if (!r.search) return;
  out << "\nWhich strategy is fastest where:\n\n";
  for (const std::string& line : strategy_win_lines(r.results)) out << "- " << md_cell(line) << "\n";
}

}  // namespace trainsim
