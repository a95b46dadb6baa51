#include "sim/validate/gnuplot_plot.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "sim/report/gnuplot.hpp"
#include "sim/validate/text_format.hpp"

namespace trainsim {
namespace {

// Colour-blind-safe palette (Okabe & Ito 2008), one entry per hardware in sorted order.
const char* const kPlotColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"};

}  // namespace

std::string predicted_vs_measured_script(const std::vector<RowResult>& rows, const std::string& svg_path) {
  std::map<std::string, std::vector<const RowResult*>> by_hw;
  double lo = 1e300, hi = 0;
  for (const auto& r : rows) {
    by_hw[r.measurement.hardware].push_back(&r);
    lo = std::min({lo, r.measured_time, r.prediction.iteration_time});
    hi = std::max({hi, r.measured_time, r.prediction.iteration_time});
  }
  lo /= 1.5;
  hi *= 1.5;
  std::ostringstream s;
  s << "set terminal svg size 900,700 dynamic font 'sans,11'\nset output " << gnuplot_quoted(svg_path) << "\n";
  int k = 0;
  for (const auto& [hw, list] : by_hw) {
    s << "$hw" << k++ << " << EOD\n";
    for (const RowResult* r : list)
      s << format_text("%.6g %.6g %s %d\n", r->measured_time, r->prediction.iteration_time,
                       r->measurement.id.c_str(), r->measurement.split == Split::kCheck ? 9 : 7);
    s << "EOD\n";
  }
  s << "set logscale xy\nset xrange [" << lo << ":" << hi << "]\nset yrange [" << lo << ":" << hi << "]\n"
    << "set xlabel 'measured seconds per iteration'\nset ylabel 'predicted seconds per iteration'\n"
    << "set title 'trainsim: predicted vs measured seconds per iteration'\n"
    << "set key top left\nset grid\nset size square\n"
    << "plot x title 'predicted = measured' lc rgb '#000000' dt 1, "
       "1.1*x title '±10%' lc rgb '#888888' dt 2, 0.9*x notitle lc rgb '#888888' dt 2";
  k = 0;
  for (const auto& entry : by_hw) {
    const char* colour = kPlotColours[static_cast<size_t>(k) % (sizeof kPlotColours / sizeof kPlotColours[0])];
    // Points take their type from column 4, so the key gets a fixed-type sample of its own.
    s << ", \\\n  keyentry with points pt 5 ps 1.2 lc rgb '" << colour << "' title " << gnuplot_quoted(entry.first)
      << ", \\\n  $hw" << k << " using 1:2:4 with points pt variable ps 1.2 lc rgb '" << colour
      << "' notitle, \\\n  $hw" << k
      << " using 1:2:3 with labels offset char 0.6,0.6 left font 'sans,7' tc rgb '" << colour << "' notitle";
    ++k;
  }
  s << ", \\\n  keyentry with points pt 7 lc rgb '#000000' title 'calibrate row', \\\n"
       "  keyentry with points pt 9 lc rgb '#000000' title 'check row'\nunset output\n";
  return s.str();
}

std::string plot_predicted_vs_measured(const std::vector<RowResult>& rows, const std::string& svg_path) {
  return run_gnuplot(predicted_vs_measured_script(rows, svg_path));
}

}  // namespace trainsim
