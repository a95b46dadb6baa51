// `trainsim fit --platform P`: replays a seeded design of experiments (sim/cli/fit_design) in
// parallel child processes, fits theta of the iteration formulas by least squares on a training
// share of the runs (sim/analytic/theta_fit), reports formula-vs-replay error per term on the
// held-out runs, and writes theta with its provenance beside the platform preset.
#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <random>

#include "sim/analytic/theta_fit.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/fit_design.hpp"
#include "sim/cli/fit_report.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/replay_terms.hpp"
#include "sim/cli/theta_file.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/child_process.hpp"
#include "sim/core/error.hpp"
#include "sim/core/version.hpp"

namespace trainsim {
namespace {

int int_option(const ParsedArgs& a, const std::string& name, int fallback, int lo, int hi) {
  const std::string text = a.get(name, std::to_string(fallback));
  try {
    const int v = std::stoi(text);
    if (v >= lo && v <= hi) return v;
  } catch (const std::exception&) {
  }
  throw UserError("--" + name + ": '" + text + "' is not an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
}
std::vector<ObservedIteration> replay_all(const std::vector<DesignPoint>& points, int jobs) {
  std::vector<std::function<std::string()>> fns;
  for (const DesignPoint& p : points) fns.push_back([p] { return replay_terms_text(load_run(p.base, p.sets)); });
  size_t done = 0;
  const auto results = call_in_children(fns, jobs, nullptr, [&](size_t i, const std::string&) {
    std::cerr << "[" << ++done << "/" << points.size() << "] " << (points[i].moe ? "moe   " : "dense ") << points[i].label() << "\n";
  });
  std::vector<ObservedIteration> out;
  for (const std::string& r : results) {
    const ReplayTerms t = parse_replay_terms(r);
    out.push_back({t.iteration_time, t.mean});
  }
  return out;
}
void write_theta(const std::string& path, const std::string& platform, const IterationTheta& th, const FitErrors& test,
                 const FitErrors& train, uint64_t seed, const std::vector<DesignPoint>& points, const FitSet& test_set) {
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  write_output_file(path, "--out", [&](std::ostream& out) {
    out.precision(6);
    out << "# Coefficients of trainsim's iteration formulas for this platform, fitted by `trainsim fit` to\n"
        << "# replayed timelines (not to measured runs). Read by `trainsim estimate`.\n"
        << "platform: " << platform << "\ntheta:\n";
    for (const ThetaField& f : theta_fields()) out << "  " << f.name << ": " << th.*f.value << "   # " << f.meaning << "\n";
    out << "test_error: {mean: " << test.mean << ", max: " << test.max << "}   # |formula - replay| / replay, held out\n"
        << "provenance:\n  trainsim: \"" << version_text() << "\"   # the build that replayed and fitted\n"
        << "  seed: " << seed << "\n  samples: " << points.size() << "\n  test: " << test_set.inputs.size()
        << "\n  train_error: {mean: " << train.mean << ", max: " << train.max << "}\n  runs:\n";
    for (size_t i = 0; i < points.size(); ++i) {
      const bool held_out = std::find(test_set.index.begin(), test_set.index.end(), i) != test_set.index.end();
      out << "    - \"" << (held_out ? "test " : "train ") << (points[i].moe ? "moe " : "dense ") << points[i].label() << "\"\n";
    }
  });
}

int run_fit(const ParsedArgs& a) {
  if (!a.has("platform")) throw UserError("fit: --platform NAME is required (see trainsim list)");
  const std::string platform = a.get("platform");
  const PlatformSpec spec = load_platform(platform);
  const int samples = int_option(a, "samples", 128, 4, 100000), jobs = int_option(a, "jobs", 2, 1, 256);
  const auto seed = static_cast<uint64_t>(int_option(a, "seed", 1, 0, 2147483647));
  const auto start = std::chrono::steady_clock::now();
  const std::vector<DesignPoint> points = sample_design(platform, samples, seed);
  FitSet all;
  for (size_t i = 0; i < points.size(); ++i) {
    all.inputs.push_back(extract_iteration_inputs(load_run(points[i].base, points[i].sets)));
    all.index.push_back(i);
  }
  all.observed = replay_all(points, jobs);
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::shuffle(order.begin(), order.end(), std::mt19937_64(seed ^ 0x9e3779b97f4a7c15ull));
  const size_t held = std::max<size_t>(1, points.size() / 4);
  const FitSet test = subset(all, {order.begin(), order.begin() + static_cast<long>(held)});
  const FitSet train = subset(all, {order.begin() + static_cast<long>(held), order.end()});
  const IterationTheta th = fit_theta(train.inputs, train.observed);
  std::cout << "fit        platform " << spec.name << ", seed " << seed << ", " << points.size() << " runs ("
            << train.inputs.size() << " train, " << test.inputs.size() << " test, held out at random)\ntheta     ";
  for (const ThetaField& f : theta_fields()) std::cout << " " << f.name << " " << th.*f.value;
  std::cout << "\n";
  print_errors(std::cout, train, test, th, IterationTheta{});
  print_by_kind(std::cout, test, points, th);
  print_worst(std::cout, "held-out", test, points, th);
  if (a.has("verbose")) print_worst(std::cout, "training (theta = 1)", train, points, IterationTheta{});
  const std::string path = a.get("out", theta_path_for(spec));
  write_theta(path, spec.name, th, fit_errors(test.inputs, test.observed, th), fit_errors(train.inputs, train.observed, th),
              seed, points, test);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "\nwrote " << path << " (" << static_cast<int>(wall) << " s)\n";
  return 0;
}

}  // namespace

Command fit_command() {
  CommandSpec spec;
  spec.name = "fit";
  spec.usage = "--platform NAME [options]";
  spec.summary = "fit the iteration formulas' coefficients to replayed strategies; report train/test error";
  spec.options = {
      {"platform", "NAME", "platform preset (or path) to fit (required)"},
      {"seed", "N", "seed of the design of experiments and of the train/test split (default 1)"},
      {"samples", "N", "strategies to replay, alternating dense and MoE, a quarter on 4-8 nodes (default 128)"},
      {"jobs", "N", "replays run in parallel child processes (default 2)"},
      {"out", "FILE", "where to write theta (default: platforms/theta/<platform>.yaml beside the preset)"},
      {"verbose", "", "also list the training runs the plain formula (theta = 1) misses most"}};
  spec.details =
      "Strategies are drawn over degrees, micro-batch, schedule, virtual stages, ZeRO stage, recompute, SP\n"
      "and overlap switches for Llama 2 7B and Mixtral 8x7B cut to 8 layers on 1-2 nodes (a quarter of them:\n"
      "4 layers on 4-8 nodes); a quarter is held out for the test error. The same platform and seed give the\n"
      "same runs and the same theta.";
  spec.max_positionals = 0;
  return {spec, run_fit};
}

}  // namespace trainsim
