#include <chrono>
#include <fstream>
#include <iostream>

#include "sim/analytic/device_memory.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/cli/run_loading.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/builder.hpp"
#include "sim/report/graph_summary.hpp"
#include "sim/report/run_description.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {
namespace {

// Builds every stage's template and reports how long it took: the graph-building benchmark.
int build_all_stages(const RunSpec& run) {
  const auto start = std::chrono::steady_clock::now();
  const RunGraph graph = build_run_graph(run);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  size_t tasks = 0;
  for (const auto& stage : graph.stages) tasks += stage.size();
  std::cout << run.name << ": " << graph.stages.size() << " stage templates, " << tasks << " tasks, built in "
            << wall << " s (serving " << run.devices << " devices)\n";
  return 0;
}

int run_graph(const ParsedArgs& a) {
  const RunSpec run = load_run_for_command(a);
  if (a.has("all-stages")) return build_all_stages(run);
  const int device = option_int(a, "device", 0);
  if (device < 0 || device >= run.devices)
    throw UserError("--device: " + std::to_string(device) + " is not a rank of this run; valid: 0.." +
                    std::to_string(run.devices - 1));
  const Mesh mesh(run.strategy);
  const int stage = mesh.coord(device)[Dim::kPp];
  const StageGraph graph = build_stage_graph(run, stage);
  describe_run(std::cout, run);
  std::cout << "\ndevice " << device << " (pipeline stage " << stage << "): " << graph.size() << " tasks\n";
  write_graph_summary(std::cout, graph);
  const auto memory = stage_memory(run);
  std::cout << "\n";
  describe_memory(std::cout, run, {memory[static_cast<size_t>(stage)]});
  if (a.has("dot")) {
    const int microbatch = option_int(a, "microbatch", 0);
    if (microbatch < 0 || microbatch >= run.microbatches())
      throw UserError("--microbatch: " + std::to_string(microbatch) + " is not a micro-batch of this run; valid: 0.." +
                      std::to_string(run.microbatches() - 1));
    write_output_file(a.get("dot"), "--dot", [&](std::ostream& out) { write_dot(out, graph, microbatch); });
    std::cout << "wrote " << a.get("dot") << " (render with: dot -Tsvg " << a.get("dot") << " -o graph.svg)\n";
  }
  return 0;
}

}  // namespace

Command graph_command() {
  CommandSpec spec;
  spec.name = "graph";
  spec.usage = "RUN.yaml [--device R] [--dot FILE] [--set KEY=VALUE ...]";
  spec.summary = "show one device's task graph: tasks per stream and kind, FLOPs, bytes, memory";
  spec.options = {{"device", "R", "the device (rank) to show; default 0"},
                  {"dot", "FILE", "write one micro-batch's tasks as Graphviz DOT"},
                  {"microbatch", "M", "which micro-batch --dot shows; default 0"},
                  {"all-stages", "", "build every stage's template and report the build time (benchmark)"},
                  set_option()};
  spec.min_positionals = spec.max_positionals = 1;
  return {spec, run_graph};
}

}  // namespace trainsim
