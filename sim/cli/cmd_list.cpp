#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/collective/plan.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/graph/schedule.hpp"
#include "sim/platform/build.hpp"

namespace trainsim {
namespace {

void row(const std::string& name, const std::string& description) {
  std::string left = "  " + name;
  left += std::string(left.size() < 32 ? 32 - left.size() : 1, ' ');
  std::cout << left << description << "\n";
}

void list_presets(const char* title, const std::vector<PresetInfo>& presets) {
  std::cout << title << " (" << presets.size() << "):\n";
  for (const auto& p : presets) row(p.name, p.description);
}

int run_list(const ParsedArgs& a) {
  const std::string what = a.positionals().empty() ? "all" : a.positionals()[0];
  const bool all = what == "all";
  bool known = all;
  if (all || what == "platforms") { list_presets("platforms", list_platform_presets()); known = true; }
  if (all || what == "models") { list_presets("models", list_model_presets()); known = true; }
  if (all || what == "runs") { list_presets("runs", list_run_presets()); known = true; }
  if (all || what == "frameworks") { list_presets("frameworks", list_framework_presets()); known = true; }
  if (all || what == "schedules") {
    std::cout << "schedules:\n";
    for (const auto& s : schedules()) row(s.name, s.description);
    known = true;
  }
  if (all || what == "collectives") {
    std::cout << "collectives:\n";
    for (const auto& c : collective_algorithms()) row(c.name, c.description);
    known = true;
  }
  if (all || what == "topologies") {
    std::cout << "topologies:\n";
    for (const auto& t : list_topologies()) row(t.name, t.description);
    known = true;
  }
  if (!known)
    throw UserError("trainsim list: unknown category '" + what +
                    "'; valid: platforms, models, runs, frameworks, schedules, collectives, topologies");
  return 0;
}

}  // namespace

Command list_command() {
  CommandSpec spec;
  spec.name = "list";
  spec.usage = "[platforms|models|runs|frameworks|schedules|collectives|topologies]";
  spec.summary = "show the presets and registered components, one line each";
  spec.details = "Presets are read from platforms/, workloads/, workloads/models/ and workloads/frameworks/ under $TRAINSIM_DATA_DIR (default: the source tree).";
  spec.max_positionals = 1;
  return {spec, run_list};
}

}  // namespace trainsim
