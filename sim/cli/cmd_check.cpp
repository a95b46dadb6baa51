#include <algorithm>
#include <iostream>

#include "sim/analytic/device_memory.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/run_loading.hpp"
#include "sim/core/error.hpp"
#include "sim/report/run_description.hpp"
#include "sim/strategy/domain_groups.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {
namespace {

void describe_mesh(const RunSpec& run) {
  const Mesh mesh(run.strategy);
  const int node = run.platform.tiers.front().domain_size > 0 ? run.platform.tiers.front().domain_size : run.devices;
  std::cout << "mesh       order " << run.strategy.mesh_order << "; rank 0's groups:";
  for (Dim d : {Dim::kTp, Dim::kCp, Dim::kEp, Dim::kDp, Dim::kEdp, Dim::kPp}) {
    // edp: the routed experts' data-parallel group, shown when it differs from dp (ep > 1)
    if (mesh.degree(d) <= 1 || (d == Dim::kEdp && run.strategy.ep <= 1)) continue;
    const auto g = mesh.group(0, d);
    std::cout << " " << to_string(d) << " {" << g.front();
    if (g.size() > 1) std::cout << "," << g[1];
    if (g.size() > 2) std::cout << ",…," << g.back();
    std::cout << "}";
  }
  std::cout << "; " << (run.devices + node - 1) / node << " nodes of " << node << "\n";
}

// One warning line per TP or EP group layout that leaves the innermost domain while the run does
// not forbid it (strategy.keep_in_domain): its per-layer collectives then cross the next tier.
void warn_straddling_groups(const RunSpec& run) {
  const Mesh mesh(run.strategy);
  const auto& tiers = run.platform.tiers;
  const auto& kept = run.strategy.keep_in_domain;
  for (Dim d : {Dim::kTp, Dim::kEp}) {
    const std::string name = to_string(d);
    if (std::find(kept.begin(), kept.end(), name) != kept.end()) continue;  // refused at load instead
    const auto g = first_straddling_group(mesh, d, tiers.front().domain_size);
    if (!g) continue;
    std::cout << "warning    " << name << " group " << group_text(g->ranks) << " spans " << g->domains << " '"
              << tiers.front().name << "' domains of " << tiers.front().domain_size
              << " devices: its collectives cross '" << (tiers.size() > 1 ? tiers[1].name : tiers.front().name)
              << "' (strategy.keep_in_domain: [" << name << "] refuses such a layout)\n";
  }
}

// Megatron (Megatron-LM and Megatron-Core) overlaps pipeline transfers only in the interleaved
// schedule: Megatron-LM's validate_args turns overlap_p2p_comm off without a virtual pipeline, and
// Megatron-Core's non-interleaved schedule refuses it. A run on that framework that asks for it anyway
// gets replayed as asked, with this line.
void warn_framework_overlap(const RunSpec& run) {
  const std::string& f = run.framework.name;
  const bool megatron = f.rfind("megatron-core", 0) == 0 || f.rfind("megatron-lm", 0) == 0;
  const auto& s = run.strategy;
  if (!megatron || s.pp <= 1 || !s.overlap.pp_comm || s.virtual_stages > 1) return;
  std::cout << "warning    strategy.overlap.pp_comm: " << f << " overlaps pipeline transfers only in the interleaved "
            << "schedule (virtual_stages > 1); with schedule " << s.schedule
            << " it waits for them (set pp_comm: false to model that)\n";
}

int run_check(const ParsedArgs& a) {
  const RunSpec run = load_run_for_command(a);
  describe_run(std::cout, run);
  describe_mesh(run);
  warn_straddling_groups(run);
  warn_framework_overlap(run);
  const auto memory = stage_memory(run);
  describe_memory(std::cout, run, memory);
  require_fits(run, memory);
  std::cout << "ok: the run is valid and fits in memory\n";
  return 0;
}

}  // namespace

Command check_command() {
  CommandSpec spec;
  spec.name = "check";
  spec.usage = "RUN.yaml [--set KEY=VALUE ...]";
  spec.summary = "validate a run and print what it resolves to: devices, mesh, degrees, parameters, FLOPs, memory";
  spec.details =
      "Exit code 0 when the run is valid and fits in memory; 2 when an input is invalid (the message names\n"
      "the file, line, key and value and says what would be valid) or the strategy does not fit.";
  spec.options = {set_option()};
  spec.min_positionals = spec.max_positionals = 1;
  return {spec, run_check};
}

}  // namespace trainsim
