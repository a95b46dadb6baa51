// `trainsim bench-engine`: how SimGrid's own primitives (a context switch, a timer, an execution)
// cost per wake-up as the number of actors grows, each case in a process of its own. The same
// number of wake-ups is spread over more actors, so a cost per wake-up that grows as actors^a
// makes a replay with a fixed amount of work per device grow as devices^(1 + a).
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/validation_args.hpp"
#include "sim/core/child_process.hpp"
#include "sim/core/error.hpp"
#include "sim/replay/engine_bench.hpp"

namespace trainsim {
namespace {

constexpr int kMaxActors = 65536;

std::vector<int> parse_actors(const std::string& text) {
  std::vector<int> out;
  for (const std::string& item : split_list(text)) {
    int n = 0;
    try {
      size_t used = 0;
      n = std::stoi(item, &used);
      if (used != item.size()) n = 0;
    } catch (const std::exception&) {
      n = 0;
    }
    if (n < 1 || n > kMaxActors)
      throw UserError("bench-engine: --actors takes whole numbers from 1 to " + std::to_string(kMaxActors) +
                      " separated by commas, got '" + item + "'");
    out.push_back(n);
  }
  if (out.empty()) throw UserError("bench-engine: --actors needs at least one count");
  return out;
}

std::vector<EnginePrimitive> parse_primitives(const std::string& text) {
  std::vector<EnginePrimitive> out;
  for (const std::string& item : split_list(text)) {
    bool found = false;
    for (EnginePrimitive p : {EnginePrimitive::kYield, EnginePrimitive::kSleep, EnginePrimitive::kExecute})
      if (item == to_string(p)) out.push_back(p), found = true;
    if (!found) throw UserError("bench-engine: --primitives takes yield, sleep and execute, got '" + item + "'");
  }
  if (out.empty()) throw UserError("bench-engine: --primitives needs at least one of yield, sleep, execute");
  return out;
}

// Least-squares slope of log y against log x.
double log_slope(const std::vector<double>& x, const std::vector<double>& y) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double a = std::log(x[i]), b = std::log(y[i]);
    n += 1, sx += a, sy += b, sxx += a * a, sxy += a * b;
  }
  const double d = n * sxx - sx * sx;
  return d > 0 ? (n * sxy - sx * sy) / d : 0;
}

int run_bench_engine(const ParsedArgs& a) {
  const std::vector<int> actors = parse_actors(a.get("actors", "64,256,1024,4096,16384"));
  const std::vector<EnginePrimitive> primitives = parse_primitives(a.get("primitives", "yield,sleep,execute"));
  long total = 0;
  try {
    total = std::stol(a.get("wakeups", "4000000"));
  } catch (const std::exception&) {
    total = 0;
  }
  if (total < 1 || total > 1000000000L)
    throw UserError("bench-engine: --wakeups takes a whole number from 1 to 1000000000, got '" + a.get("wakeups") + "'");
  std::printf("%-9s %8s %12s %10s %14s\n", "primitive", "actors", "wake-ups", "CPU s", "us per wake-up");
  for (EnginePrimitive p : primitives) {
    std::vector<double> xs, ys;
    for (int n : actors) {
      const int per_actor = static_cast<int>(std::max(1L, total / n));
      std::istringstream in(call_in_child([p, n, per_actor] {
        const EngineBench b = bench_engine_primitive(p, n, per_actor);
        std::ostringstream o;
        o.precision(17);
        o << b.wakeups << ' ' << b.cpu_seconds;
        return o.str();
      }));
      long wakeups = 0;
      double cpu = 0;
      in >> wakeups >> cpu;
      const double us = wakeups > 0 ? 1e6 * cpu / static_cast<double>(wakeups) : 0;
      std::printf("%-9s %8d %12ld %10.2f %14.3f\n", to_string(p), n, wakeups, cpu, us);
      std::fflush(stdout);
      if (us > 0) xs.push_back(n), ys.push_back(us);
    }
    if (xs.size() >= 2)
      std::printf("%-9s cost per wake-up ~ actors^%.2f: fixed work per actor grows as actors^%.2f\n", to_string(p),
                  log_slope(xs, ys), 1 + log_slope(xs, ys));
  }
  return 0;
}

}  // namespace

Command bench_engine_command() {
  CommandSpec spec;
  spec.name = "bench-engine";
  spec.usage = "[--actors N,N,...] [--primitives yield,sleep,execute] [--wakeups N]";
  spec.summary = "measure how SimGrid's own primitives cost per wake-up as the number of actors grows";
  spec.details =
      "Each case runs N actors, one per host, that together wake up --wakeups times through one primitive:\n"
      "yield (a context switch), sleep (a timer) or execute (an Exec activity on the host), in a process\n"
      "of its own. It prints CPU seconds per wake-up and, per primitive, the exponent a of its growth with\n"
      "the number of actors: a simulation doing a fixed amount of work per actor grows as actors^(1 + a)\n"
      "from SimGrid alone (compare scripts/bench.sh's growth exponent of the replay).";
  spec.options = {{"actors", "N,N,...", "actor counts to measure (default 64,256,1024,4096,16384; at most 65536)"},
                  {"primitives", "LIST", "which of yield, sleep, execute (default all three)"},
                  {"wakeups", "N", "wake-ups per case, spread over the actors (default 4000000)"}};
  spec.max_positionals = 0;
  return {spec, run_bench_engine};
}

}  // namespace trainsim
