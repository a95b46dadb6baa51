// The sweep's figure: the gnuplot script's panels and data, and the SVG gnuplot draws from it.
#include <catch2/catch.hpp>
#include <filesystem>

#include "sim/report/gnuplot.hpp"
#include "sim/sweep/sweep_plot.hpp"
#include "tests/support/run_command.hpp"

using namespace trainsim;

namespace {
SweepPlotInput two_by_two() {
  SweepPlotInput in;
  in.axes = parse_varies({"bw=25GBps,50GBps", "strategy.tp=2,4"});
  in.title = "test sweep";
  for (const SweepPoint& p : expand_grid(in.axes, false)) {
    PointResult r;
    r.point = p;
    r.iteration_time = 1.0 + p.index;
    r.terms = {0.5, 0.3, 0, 0.1, 0.05 * p.index, 0, 0, 0.02, 0.01};  // CP and EP zero at every point
    in.results.push_back(r);
  }
  in.results[3].status = PointStatus::kOutOfMemory;
  return in;
}
size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("the sweep plot has a panel per varied key plus the stacked breakdown", "[sweep]") {
  const std::string s = sweep_plot_script(two_by_two(), "out.svg");
  CHECK_THAT(s, Catch::Contains("set multiplot layout 3,1"));
  CHECK(count(s, "\nplot ") == 3);
  // Key bw's panel: one line per value of strategy.tp, x at the value's position in the list.
  CHECK_THAT(s, Catch::Contains("$p0l0 << EOD\n0 1\n1 3\nEOD"));
  CHECK_THAT(s, Catch::Contains("Left title 'strategy.tp'\n") && Catch::Contains("title '2'") &&
                    Catch::Contains("title '4'"));
  // The out-of-memory point has no metric value.
  CHECK_THAT(s, Catch::Contains("$p0l1 << EOD\n0 2\n1 ?\nEOD"));
  CHECK_THAT(s, Catch::Contains("set xtics ('25GBps' 0, '50GBps' 1)"));
  // Layers that are zero everywhere (CP, EP) are left out of the stack.
  CHECK_THAT(s, Catch::Contains("title 'compute'") && Catch::Contains("title 'exposed TP'") &&
                    Catch::Contains("title 'bubble and idle'"));
  CHECK_THAT(s, !Catch::Contains("exposed CP") && !Catch::Contains("exposed EP"));
  CHECK_THAT(s, Catch::Contains("\"50GBps 4 (out-of-memory)\""));
}

TEST_CASE("zipped keys share one line through every point", "[sweep]") {
  SweepPlotInput in = two_by_two();
  in.zip = true;
  in.axes = parse_varies({"bw=25GBps,50GBps", "strategy.tp=2,4"});
  in.results.resize(2);
  in.results[1].point.values = {{"bw", "50GBps"}, {"strategy.tp", "4"}};
  const std::string s = sweep_plot_script(in, "out.svg");
  CHECK_THAT(s, Catch::Contains("$p1l0 << EOD\n0 1\n1 2\nEOD") && !Catch::Contains("$p1l1"));
}

TEST_CASE("gnuplot draws the sweep plot as an SVG with every panel", "[sweep]") {
  const std::string svg = test::scratch("trainsim_sweep_plot_test.svg");
  std::filesystem::remove(svg);
  REQUIRE(run_gnuplot(sweep_plot_script(two_by_two(), svg)) == "");
  const std::string text = test::slurp(svg);
  CHECK_THAT(text, Catch::StartsWith("<?xml") && Catch::Contains("</svg>"));
  CHECK_THAT(text, Catch::Contains("seconds per iteration") && Catch::Contains("exposed TP") &&
                       Catch::Contains("strategy.tp"));
  std::filesystem::remove(svg);
}

TEST_CASE("the plot metric is one of three names", "[sweep]") {
  CHECK(parse_sweep_metric("mfu") == SweepMetric::kMfu);
  CHECK_THROWS_WITH(parse_sweep_metric("speed"), Catch::Contains("valid: iteration_s, tokens_per_s, mfu"));
}
