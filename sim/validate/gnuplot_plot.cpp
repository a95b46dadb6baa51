#include "sim/validate/gnuplot_plot.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "sim/validate/text_format.hpp"

namespace trainsim {
namespace {

// Colour-blind-safe palette (Okabe & Ito 2008), one entry per hardware in sorted order.
const char* const kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"};

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::error_code ec;
    const auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / program;
    if (std::filesystem::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

// gnuplot single-quoted string: a quote is written twice.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

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
  s << "set terminal svg size 900,700 dynamic font 'sans,11'\nset output " << quoted(svg_path) << "\n";
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
    const char* colour = kColours[static_cast<size_t>(k) % (sizeof kColours / sizeof kColours[0])];
    // Points take their type from column 4, so the key gets a fixed-type sample of its own.
    s << ", \\\n  keyentry with points pt 5 ps 1.2 lc rgb '" << colour << "' title " << quoted(entry.first)
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
  if (!on_path("gnuplot")) return "gnuplot is not on PATH (Debian package gnuplot-nox; scripts/setup.sh installs it)";
  const std::string script = predicted_vs_measured_script(rows, svg_path);
  std::fflush(nullptr);
  FILE* pipe = popen("gnuplot", "w");
  if (!pipe) return "could not start gnuplot";
  std::fwrite(script.data(), 1, script.size(), pipe);
  const int status = pclose(pipe);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return "gnuplot failed (exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
  return "";
}

}  // namespace trainsim
