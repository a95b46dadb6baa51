// The `trainsim` subcommands. Each takes its arguments (after the command name) and returns the
// process exit code; user errors are thrown as UserError and turned into exit code 2 by main.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sim/cli/args.hpp"

namespace trainsim {

struct Command {
  CommandSpec spec;
  std::function<int(const ParsedArgs&)> run;
};

[[nodiscard]] const std::vector<Command>& commands();
// Runs `trainsim <args...>`; prints help, errors and results; returns the exit code.
int run_cli(const std::vector<std::string>& args);

Command list_command();
Command check_command();
Command graph_command();
Command simulate_command();
Command validate_command();
Command calibrate_command();
Command kernels_command();
Command estimate_command();
Command fit_command();
Command bench_formulas_command();
Command bench_engine_command();
Command search_command();
Command sweep_command();
Command schema_command();
Command import_model_command();

}  // namespace trainsim
