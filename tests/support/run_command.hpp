// Runs the built `trainsim` binary as a user would, capturing exit code, stdout and stderr.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace trainsim::test {

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};

// `name` in the system's temporary folder ($TMPDIR, else the platform's default), for files a
// test writes.
inline std::string scratch(const std::string& name) { return (std::filesystem::temp_directory_path() / name).string(); }

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `args` is appended to the binary's path as shell text (quote what needs quoting).
inline CommandResult run_trainsim(const std::string& args) {
  static int counter = 0;
  const std::string base = scratch("trainsim_test_" + std::to_string(::getpid())) + "_" + std::to_string(counter++);
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
