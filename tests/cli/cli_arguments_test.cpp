// Command-line mistakes a user makes, each refused with a message that names it (or, for output
// that cannot be written, reported as a failure), never taken as something else.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>

#include "tests/support/paths.hpp"
#include "tests/support/run_command.hpp"

using namespace trainsim::test;

namespace {
const std::string kDefaultRun = (kRoot / "workloads/default.yaml").string();
}  // namespace

TEST_CASE("an option followed by another option where its value should be is refused, not taken as a file name",
          "[cli]") {
  const CommandResult r = run_trainsim("simulate " + kDefaultRun + " --json --allow-oom");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--json needs a value (FILE), got the option '--allow-oom'") != std::string::npos);
  // --help where the value should be asks for help.
  const CommandResult help = run_trainsim("simulate " + kDefaultRun + " --json --help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("usage: trainsim simulate") == 0);
  // The inline form still takes any value.
  const CommandResult inline_form = run_trainsim("graph " + kDefaultRun + " --device=1");
  CHECK(inline_form.exit_code == 0);
}

TEST_CASE("an integer option out of int's range says so rather than 'expected an integer'", "[cli]") {
  const CommandResult r = run_trainsim("graph " + kDefaultRun + " --device 99999999999");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--device: 99999999999 is out of range") != std::string::npos);
}

TEST_CASE("graph --microbatch is checked against the run's micro-batches", "[cli]") {
  // default.yaml: 32 sequences, micro-batch 1, dp 4 -> 8 micro-batches, 0..7.
  const std::string dot = scratch("cli_arguments_test.dot");
  const CommandResult past = run_trainsim("graph " + kDefaultRun + " --dot " + dot + " --microbatch 8");
  CHECK(past.exit_code == 2);
  CHECK(past.err.find("valid: 0..7") != std::string::npos);
  CHECK(run_trainsim("graph " + kDefaultRun + " --dot " + dot + " --microbatch -1").exit_code == 2);
  CHECK(run_trainsim("graph " + kDefaultRun + " --dot " + dot + " --microbatch 7").exit_code == 0);
  std::remove(dot.c_str());
}

TEST_CASE("bench-formulas refuses a time budget that is not a finite positive number", "[cli]") {
  for (const char* seconds : {"nan", "0", "-1", "inf"}) {  // inf last: before the fix it ran forever
    INFO(seconds);
    const CommandResult r = run_trainsim(std::string("bench-formulas --platform dgx-h100-superpod --seconds ") + seconds);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--seconds a finite number > 0") != std::string::npos);
  }
}

TEST_CASE("two outputs named with the same file are refused before anything runs", "[cli]") {
  const std::string same = scratch("cli_arguments_test_same.out");
  const CommandResult r = run_trainsim("simulate " + kDefaultRun + " --json " + same + " --links " + same);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--json and --links name the same file") != std::string::npos);
  // The same file spelled two ways before it exists (relative, and ./ relative): refused before
  // anything is written.
  const CommandResult spelled =
      run_trainsim("simulate " + kDefaultRun + " --json cli_args_new.json --links ./cli_args_new.json");
  CHECK(spelled.exit_code == 2);
  const CommandResult sweep = run_trainsim("sweep " + kDefaultRun + " --vary platform.tiers.1.bandwidth=100Gbps,400Gbps "
                                           "--csv " + same + " --markdown " + same);
  CHECK(sweep.exit_code == 2);
  CHECK(sweep.err.find("--csv and --markdown name the same file") != std::string::npos);
}

TEST_CASE("a report that cannot be written to standard output is a failure", "[cli]") {
  // /dev/full refuses every write (ENOSPC), as a full disk would.
  const std::string err = scratch("cli_arguments_test_full.err");
  const int status = std::system((std::string(TRAINSIM_BIN) + " list >/dev/full 2>" + err).c_str());
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(slurp(err).find("writing to standard output failed") != std::string::npos);
  std::remove(err.c_str());
}

TEST_CASE("a run that does not fit names every part of its memory and what would shrink the largest", "[cli]") {
  // A 1 TiB gradient bucket makes the communication buffers the largest part by far.
  const CommandResult r = run_trainsim("check " + kDefaultRun + " --set strategy.grad_bucket_size=1TiB");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("communication buffers ") != std::string::npos);
  CHECK(r.err.find(" TiB") != std::string::npos);
  CHECK(r.err.find("framework ") != std::string::npos);
  CHECK(r.err.find("try a smaller strategy.grad_bucket_size") != std::string::npos);
}

TEST_CASE("an unknown preset given by --set is reported at the --set, not at a line of the run file", "[cli]") {
  // default.yaml has no framework key: the error is the override's.
  for (const char* key : {"framework", "model"}) {
    INFO(key);
    const CommandResult r = run_trainsim("check " + kDefaultRun + " --set " + key + "=nope");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(std::string("error: --set ") + key + "=nope: " + key + ": unknown") != std::string::npos);
  }
}
