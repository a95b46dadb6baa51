#include "sim/cli/sweep_output.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/cli/output_file.hpp"
#include "sim/cli/sweep_report.hpp"
#include "sim/core/error.hpp"
#include "sim/report/gnuplot.hpp"
#include "sim/sweep/sweep_plot.hpp"

namespace trainsim {
namespace {

// gnuplot draws into a temporary file, which then goes to `path` through write_output_file.
void write_plot(const std::string& path, const SweepPlotInput& in) {
  std::string temp = (std::filesystem::temp_directory_path() / "trainsim-sweep-XXXXXX.svg").string();
  const int fd = mkstemps(temp.data(), 4);
  if (fd < 0) throw WriteError("--plot " + path + ": cannot create a temporary file for gnuplot");
  ::close(fd);
  const std::string why = run_gnuplot(sweep_plot_script(in, temp));
  std::ifstream svg(temp);
  std::stringstream text;
  text << svg.rdbuf();
  std::filesystem::remove(temp);
  if (!why.empty()) throw WriteError("--plot " + path + ": " + why);
  write_output_file(path, "--plot", [&](std::ostream& out) { out << text.str(); });
}

}  // namespace

void write_sweep_outputs(const ParsedArgs& a, const SweepSpec& spec, const std::vector<PointResult>& results) {
  SweepReport report;
  report.run_name = spec.run_name;
  report.sets = spec.sets;
  report.axes = parse_varies(spec.varies);
  report.zip = spec.zip;
  report.search = spec.search;
  report.top = spec.top;
  report.results = results;
  print_sweep_table(std::cout, report);
  if (a.has("csv")) write_output_file(a.get("csv"), "--csv", [&](std::ostream& o) { write_sweep_csv(o, report); });
  if (a.has("markdown"))
    write_output_file(a.get("markdown"), "--markdown", [&](std::ostream& o) { write_sweep_markdown(o, report); });
  if (a.has("plot")) {
    const std::string title = "trainsim sweep of run " + spec.run_name +
                              (spec.search ? " (strategy re-planned at every point)" : "");
    write_plot(a.get("plot"), {report.axes, spec.zip, results, parse_sweep_metric(a.get("metric", "iteration_s")), title});
  }
}

}  // namespace trainsim
