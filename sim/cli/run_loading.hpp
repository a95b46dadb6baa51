// Loading a run for a command: overrides from --set, and the checks that need more than the
// YAML (the mesh order is valid); load_run checks the schedule.
#pragma once
#include "sim/cli/args.hpp"
#include "sim/config/run_spec.hpp"

namespace trainsim {

[[nodiscard]] RunSpec load_run_for_command(const ParsedArgs& args);
// The --set option every run-taking command accepts.
[[nodiscard]] OptionSpec set_option();

}  // namespace trainsim
