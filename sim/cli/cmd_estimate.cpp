// `trainsim estimate RUN.yaml`: the iteration formulas' prediction (sim/analytic/iteration_model)
// next to the replay's, term by term, with each term's error; --symbolic prints the formulas with
// theta and the run's numbers substituted (SymPy syntax); --json for scripts.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "sim/analytic/collective_symbolic.hpp"
#include "sim/analytic/device_memory.hpp"
#include "sim/analytic/iteration_symbolic.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/replay_terms.hpp"
#include "sim/cli/run_loading.hpp"
#include "sim/cli/theta_file.hpp"
#include "sim/core/error.hpp"
#include "sim/report/json_writer.hpp"
#include "sim/report/run_description.hpp"

namespace trainsim {
namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

void print_table(std::ostream& out, const IterationEstimate& f, const ReplayTerms* r) {
  out << "term            formula_s" << (r ? "   replay_s   diff_s  diff/iter" : "") << "\n";
  for (int k = 0; k < kIterationTerms; ++k) {
    std::string name = term_name(static_cast<IterationTerm>(k));
    name.resize(14, ' ');
    out << "  " << name << fixed(f.mean[static_cast<size_t>(k)], 4);
    if (r) {
      const double d = f.mean[static_cast<size_t>(k)] - r->mean[static_cast<size_t>(k)];
      out << "     " << fixed(r->mean[static_cast<size_t>(k)], 4) << "  " << (d < 0 ? "" : "+") << fixed(d, 4) << "  "
          << (d < 0 ? "" : "+") << fixed(100 * d / r->iteration_time, 1) << "%";
    }
    out << "\n";
  }
  out << "  iteration     " << fixed(f.iteration_time, 4);
  if (r) {
    const double d = f.iteration_time - r->iteration_time;
    out << "     " << fixed(r->iteration_time, 4) << "  " << (d < 0 ? "" : "+") << fixed(d, 4) << "  "
        << (d < 0 ? "" : "+") << fixed(100 * d / r->iteration_time, 1) << "%";
  }
  out << "\n";
}

// The peak stage's memory against the device's, for the table and the warning.
std::string memory_line(const DeviceMemory& peak, Bytes capacity) {
  return "stage " + std::to_string(peak.stage) + " needs " + human_bytes(peak.total()) + " per device of " +
         human_bytes(capacity) + (peak.total() > capacity ? ": DOES NOT FIT" : "");
}

void write_json(std::ostream& out, const IterationEstimate& f, const ReplayTerms* r, const ThetaFile& theta,
                const DeviceMemory& peak, Bytes capacity) {
  JsonWriter w(out);
  w.begin_object();
  w.field("theta_source", theta.source.empty() ? std::string("defaults") : theta.source);
  w.field("peak_memory_bytes", peak.total());
  w.field("memory_capacity_bytes", capacity);
  w.field("fits_in_memory", peak.total() <= capacity);
  w.field("formula_iteration_time_s", f.iteration_time);
  if (r) w.field("replay_iteration_time_s", r->iteration_time);
  w.key("terms").begin_object();
  for (int k = 0; k < kIterationTerms; ++k) {
    w.key(term_name(static_cast<IterationTerm>(k))).begin_object();
    w.field("formula_s", f.mean[static_cast<size_t>(k)]);
    if (r) w.field("replay_s", r->mean[static_cast<size_t>(k)]);
    w.end_object();
  }
  w.end_object();
  w.end_object();
  out << "\n";
}

int run_estimate(const ParsedArgs& a) {
  if (a.has("symbolic") && a.has("json"))
    throw UserError("estimate: --symbolic (SymPy code) and --json (JSON) both print to standard output; give one");
  const RunSpec run = load_run_for_command(a);
  const ThetaFile theta = load_theta_for(run.platform, a.get("theta", ""));
  const IterationInputs inputs = extract_iteration_inputs(run);
  const IterationEstimate f = estimate_iteration(inputs, theta.theta);
  const DeviceMemory peak = peak_memory(stage_memory(run));
  const Bytes capacity = run.platform.accelerator.memory_capacity;
  if (peak.total() > capacity)
    std::cerr << "warning: the strategy does not fit in memory (" << memory_line(peak, capacity)
              << "); simulate refuses it without --allow-oom\n";
  ReplayTerms replay;
  const bool replayed = !a.has("no-replay");
  if (replayed) replay = replay_terms(run);
  const ReplayTerms* r = replayed ? &replay : nullptr;
  if (a.has("json")) {
    write_json(std::cout, f, r, theta, peak, capacity);
  } else {
    std::ostringstream table;
    table << "run        " << run.name << "  (" << run.source_file << ")\n"
          << "theta      " << (theta.source.empty() ? "defaults, theta = 1 (no fitted theta read for platform " + run.platform.name + ")" : theta.source)
          << "\n"
          << "memory     " << memory_line(peak, capacity) << "\n\n";
    print_table(table, f, r);
    if (!a.has("symbolic")) {
      std::cout << table.str();
    } else {  // the table as comments after the code, so that the whole output runs under exec
      std::cout << symbolic_iteration(inputs, theta.theta) << symbolic_collectives(run);
      std::istringstream lines(table.str());
      for (std::string line; std::getline(lines, line);) std::cout << "#" << (line.empty() ? "" : " ") << line << "\n";
    }
  }
  if (r && theta.test_max_error > 0) {
    const double err = std::fabs(f.iteration_time - r->iteration_time) / r->iteration_time;
    if (err > theta.test_max_error)
      std::cerr << "warning: formula and replay differ by " << fixed(100 * err, 1) << "%, more than the fitted test error ("
                << fixed(100 * theta.test_max_error, 1) << "% max on held-out strategies)\n";
  }
  return 0;
}

}  // namespace

Command estimate_command() {
  CommandSpec spec;
  spec.name = "estimate";
  spec.usage = "RUN.yaml [options]";
  spec.summary = "predict the iteration time with the closed-form formulas, term by term, next to the replay";
  spec.options = {
      {"no-replay", "", "print only the formulas' prediction (no replay)"},
      {"symbolic", "", "print the formulas with theta and the run's numbers substituted, in SymPy syntax"},
      {"json", "", "print the terms as JSON instead of a table (not with --symbolic)"},
      {"theta", "FILE", "coefficients to use (default: platforms/theta/<platform>.yaml beside the preset, else 1s); "
                        "'defaults' for theta = 1, the plain physical formulas"},
      set_option()};
  spec.details =
      "Terms follow the replay's time categories (mean over devices, seconds); bubble_idle is the pipeline\n"
      "bubble plus idle time. diff/iter is the term's difference as a share of the replayed iteration time.\n"
      "A warning goes to stderr when the iteration times differ by more than theta's held-out test error.";
  spec.min_positionals = spec.max_positionals = 1;
  return {spec, run_estimate};
}

}  // namespace trainsim
