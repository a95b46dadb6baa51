// Runs the built `trainsim` binary as a user would, capturing exit code, stdout and stderr.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace trainsim::test {

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `args` is appended to the binary's path as shell text (quote what needs quoting).
inline CommandResult run_trainsim(const std::string& args) {
  static int counter = 0;
  const std::string base = "/tmp/trainsim_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  const std::string cmd = std::string(TRAINSIM_BIN) + " " + args + " >" + base + ".out 2>" + base + ".err";
  const int status = std::system(cmd.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

}  // namespace trainsim::test
