#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/core/error.hpp"
#include "sim/core/version.hpp"

namespace trainsim {

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {list_command(),     check_command(),     graph_command(),
                                           simulate_command(), validate_command(),  calibrate_command(),
                                           kernels_command(),  estimate_command(),
                                           fit_command(),      bench_formulas_command(), bench_engine_command(), search_command(),
                                           sweep_command(),    schema_command(),    import_model_command()};
  return all;
}

namespace {

void print_usage(std::ostream& out) {
  out << "usage: trainsim <command> [options]\n\n"
         "trainsim predicts how long one training iteration of a large language model takes on a\n"
         "cluster, by replaying every device's work on a SimGrid model of the network.\n\ncommands:\n";
  for (const auto& c : commands()) {
    std::string name = "  " + c.spec.name;
    name += std::string(name.size() < 14 ? 14 - name.size() : 1, ' ');
    out << name << c.spec.summary << "\n";
  }
  out << "\n`trainsim <command> --help` explains a command's options; `trainsim --version` prints the build.\n"
         "Exit codes: 0 success, 2 bad input (the message names the file, key and value), 1 an output file that could not\n"
         "be written (the message names the path and the reason) or an internal error.\n";
}

}  // namespace

int run_cli(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    print_usage(std::cout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::cout << version_text() << "\n";
    return 0;
  }
  for (const auto& c : commands()) {
    if (c.spec.name != args[0]) continue;
    try {
      const ParsedArgs parsed = parse_args(c.spec, {args.begin() + 1, args.end()});
      if (parsed.help) {
        std::cout << help_text(c.spec);
        return 0;
      }
      return c.run(parsed);
    } catch (const UserError& e) {
      std::cerr << "error: " << e.what() << "\n";
      return 2;
    }
  }
  std::cerr << "error: unknown command '" << args[0] << "'; valid: ";
  for (size_t i = 0; i < commands().size(); ++i) std::cerr << (i ? ", " : "") << commands()[i].spec.name;
  std::cerr << " (see trainsim --help)\n";
  return 2;
}

}  // namespace trainsim
