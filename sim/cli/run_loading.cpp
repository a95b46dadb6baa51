#include "sim/cli/run_loading.hpp"

#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/strategy/mesh.hpp"

namespace trainsim {

OptionSpec set_option() {
  return {"set", "KEY=VALUE",
          "override a run field, e.g. strategy.tp=4, seq_len=8192, platform.tiers.1.bandwidth=100GBps, "
          "model.layers=2",
          true};
}

RunSpec load_run_for_command(const ParsedArgs& args) {
  RunSpec run = load_run(args.positionals().at(0), args.all("set"));
  // load_run has checked the schedule (name, fit, expansion bound) in closed form, at the key
  // strategy.schedule; expanding it here would cost time and memory linear in the batch.
  try {
    (void)Mesh(run.strategy);
  } catch (const UserError& e) {
    throw UserError(run.source_file + ": strategy: " + e.what());
  }
  return run;
}

}  // namespace trainsim
