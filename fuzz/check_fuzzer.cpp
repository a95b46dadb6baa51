// libFuzzer target: one fuzzed YAML document through the path `trainsim check` takes (load and
// validate the run, model and platform; the mesh; the description; the memory table and the fit
// check; see sim/cli/cmd_check.cpp). Built three times, one mode each (TRAINSIM_FUZZ_MODE):
//   run       the input is a run file; its model and platform name bundled presets
//   model     the input is a model file, used by a fixed run on a bundled platform
//   platform  the input is a platform file, used by a fixed run of a bundled model
// A UserError (exit 2 in the CLI) is the expected answer to bad input. Any other exception, and
// any sanitizer report, is a bug: the exception is rethrown out of the callback, which aborts.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/analytic/device_memory.hpp"
#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"
#include "sim/report/run_description.hpp"
#include "sim/strategy/mesh.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path& work_dir() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("trainsim-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

void write_file(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
}

// The run file `check` is given in this mode; writes the fuzzed document where the run finds it.
fs::path prepare_inputs(const std::string& input) {
  const fs::path run = work_dir() / "run.yaml";
#if defined(TRAINSIM_FUZZ_MODE_MODEL)
  write_file(work_dir() / "model.yaml", input);
  write_file(run, "name: fuzz\nmodel: ./model.yaml\nplatform: dgx-h100-superpod\ndevices: 8\nprecision: bf16\n"
                  "seq_len: 2048\nglobal_batch: 16\nstrategy: {tp: 2, pp: 2, dp: 2}\n");
#elif defined(TRAINSIM_FUZZ_MODE_PLATFORM)
  write_file(work_dir() / "platform.yaml", input);
  write_file(run, "name: fuzz\nmodel: llama2-7b\nplatform: ./platform.yaml\ndevices: 8\nprecision: bf16\n"
                  "seq_len: 2048\nglobal_batch: 16\nstrategy: {tp: 2, pp: 2, dp: 2}\n");
#else
  write_file(run, input);
#endif
  return run;
}

// What run_check in sim/cli/cmd_check.cpp does, minus printing the mesh line.
void check(const fs::path& run_file) {
  const trainsim::RunSpec run = trainsim::load_run(run_file);
  (void)trainsim::Mesh(run.strategy);
  std::ostringstream out;
  trainsim::describe_run(out, run);
  const auto memory = trainsim::stage_memory(run);
  trainsim::describe_memory(out, run, memory);
  trainsim::require_fits(run, memory);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fs::path run = prepare_inputs(std::string(reinterpret_cast<const char*>(data), size));
  try {
    check(run);
  } catch (const trainsim::UserError&) {
    // the answer to bad input: exit 2 in the CLI
  }
  return 0;
}
