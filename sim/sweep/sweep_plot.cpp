#include "sim/sweep/sweep_plot.hpp"

#include <map>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/core/number_text.hpp"
#include "sim/core/text_list.hpp"
#include "sim/report/gnuplot.hpp"

namespace trainsim {
namespace {

// Colour-blind-safe palette (Okabe & Ito 2008).
const char* const kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"};
constexpr size_t kColourCount = sizeof kColours / sizeof kColours[0];

struct Stack {
  const char* title;
  std::vector<int> terms;  // PointResult::terms indices summed into this layer
};
const Stack kStacks[] = {{"compute", {0, 1, 2, 3}}, {"exposed TP", {4}}, {"exposed CP", {5}},
                         {"exposed EP", {6}},       {"exposed DP", {7}}, {"bubble and idle", {8}}};

double metric_value(const PointResult& r, SweepMetric m) {
  if (m == SweepMetric::kTokensPerSecond) return r.tokens_per_s;
  if (m == SweepMetric::kMfu) return 100 * r.mfu;
  return r.iteration_time;
}

const char* metric_label(SweepMetric m) {
  if (m == SweepMetric::kTokensPerSecond) return "tokens per second";
  if (m == SweepMetric::kMfu) return "MFU (%)";
  return "seconds per iteration";
}

// The line a point belongs to in key k's panel: the values of the other keys (one line with --zip),
// "k=v, j=w", or just "v" when there is one other key (the key then titles the legend).
std::string line_of(const PointResult& r, size_t k, bool zip) {
  if (zip) return "";
  std::vector<std::string> others;
  for (size_t j = 0; j < r.point.values.size(); ++j)
    if (j != k) others.push_back(r.point.values[j].first + "=" + r.point.values[j].second);
  if (others.size() == 1) return r.point.values[1 - k].second;
  return join_text(others);
}

std::string legend_title(const SweepPlotInput& in, size_t k) {
  return in.axes.size() == 2 && !in.zip ? in.axes[1 - k].key : "";
}

void metric_panel(std::ostream& s, const SweepPlotInput& in, size_t k, int panel) {
  const VaryAxis& axis = in.axes[k];
  std::map<std::string, std::vector<std::pair<size_t, const PointResult*>>> lines;
  std::vector<std::string> order;  // lines in order of first appearance
  for (const PointResult& r : in.results) {
    size_t x = 0;
    while (axis.values[x] != r.point.values[k].second) ++x;
    const std::string line = line_of(r, k, in.zip);
    if (!lines.count(line)) order.push_back(line);
    lines[line].push_back({x, &r});
  }
  for (size_t l = 0; l < order.size(); ++l) {
    s << "$p" << panel << "l" << l << " << EOD\n";
    for (const auto& [x, r] : lines[order[l]])
      s << x << " " << (r->status == PointStatus::kReplayed ? format_with("%.9g", metric_value(*r, in.metric)) : "?") << "\n";
    s << "EOD\n";
  }
  s << "set xrange [-0.5:" << axis.values.size() - 0.5 << "]\nset xtics (";
  for (size_t x = 0; x < axis.values.size(); ++x) s << (x ? ", " : "") << gnuplot_quoted(axis.values[x]) << " " << x;
  s << ")\nset xlabel " << gnuplot_quoted(axis.key) << "\nset ylabel " << gnuplot_quoted(metric_label(in.metric))
    << "\nset autoscale y\nset offsets 0, 0, graph 0.08, graph 0.08\nset key "
    << (order.size() > 1 ? "outside top center horizontal reverse Left title " + gnuplot_quoted(legend_title(in, k)) : "off")
    << "\nplot ";
  for (size_t l = 0; l < order.size(); ++l)
    s << (l ? ", \\\n  " : "") << "$p" << panel << "l" << l << " using 1:2 with linespoints lw 2 pt 7 lc rgb '"
      << kColours[l % kColourCount] << "' title " << gnuplot_quoted(order[l].empty() ? axis.key : order[l]);
  s << "\n";
}

void breakdown_panel(std::ostream& s, const SweepPlotInput& in) {
  std::vector<size_t> shown;  // the layers that are not zero at every point
  for (size_t k = 0; k < sizeof kStacks / sizeof kStacks[0]; ++k) {
    bool nonzero = false;
    for (const PointResult& r : in.results)
      for (int t : kStacks[k].terms) nonzero = nonzero || r.terms[static_cast<size_t>(t)] > 0;
    if (nonzero) shown.push_back(k);
  }
  std::vector<std::string> keys;
  for (const VaryAxis& a : in.axes) keys.push_back(a.key);
  size_t label_chars = 0;  // all the x labels side by side: rotated when they would not fit
  s << "$breakdown << EOD\n";
  for (const PointResult& r : in.results) {
    std::string label;
    for (const auto& kv : r.point.values) label += (label.empty() ? "" : " ") + kv.second;
    if (r.status != PointStatus::kReplayed) label += " (" + std::string(to_string(r.status)) + ")";
    for (char& c : label) c = c == '"' ? '\'' : c;
    label_chars += label.size() + 2;
    s << '"' << label << '"';
    for (size_t k : shown) {
      double v = 0;
      for (int t : kStacks[k].terms) v += r.terms[static_cast<size_t>(t)];
      s << " " << format_with("%.9g", v);
    }
    s << "\n";
  }
  s << "EOD\nunset xrange\nset offsets 0, 0, 0, 0\nset yrange [0:*]\nset style data histograms\n"
    << "set style histogram rowstacked\nset style fill solid 0.85 border rgb '#333333'\nset boxwidth 0.7\n"
    << (label_chars > 70 ? "set xtics rotate by 30 right\n" : "set xtics norotate\n") << "set xlabel "
    << gnuplot_quoted(join_text(keys)) << "\nset ylabel 'seconds per iteration (mean per device)'\n"
    << "set key outside top center horizontal reverse Left title ''\nplot ";
  if (shown.empty()) s << "$breakdown using 0:(0):xtic(1) notitle";
  for (size_t i = 0; i < shown.size(); ++i)
    s << (i ? ", \\\n  " : "") << "$breakdown using " << i + 2 << (i ? "" : ":xtic(1)") << " lc rgb '"
      << kColours[shown[i] % kColourCount] << "' title " << gnuplot_quoted(kStacks[shown[i]].title);
  s << "\n";
}

}  // namespace

SweepMetric parse_sweep_metric(const std::string& text) {
  if (text == "iteration_s") return SweepMetric::kIterationTime;
  if (text == "tokens_per_s") return SweepMetric::kTokensPerSecond;
  if (text == "mfu") return SweepMetric::kMfu;
  throw UserError("--metric '" + text + "'; valid: iteration_s, tokens_per_s, mfu");
}

std::string sweep_plot_script(const SweepPlotInput& in, const std::string& svg_path) {
  const int panels = static_cast<int>(in.axes.size()) + 1;
  std::ostringstream s;
  s << "set terminal svg size 900," << 330 * panels << " dynamic font 'sans,11'\nset output " << gnuplot_quoted(svg_path)
    << "\nset datafile missing '?'\nset grid ytics\nset border 3\nset tics nomirror\n"
    << "set multiplot layout " << panels << ",1 title " << gnuplot_quoted(in.title) << "\n";
  for (size_t k = 0; k < in.axes.size(); ++k) metric_panel(s, in, k, static_cast<int>(k));
  breakdown_panel(s, in);
  s << "unset multiplot\nunset output\n";
  return s.str();
}

}  // namespace trainsim
