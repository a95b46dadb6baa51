#include "sim/report/gnuplot.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace trainsim {
namespace {

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::error_code ec;
    const auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / program;
    if (std::filesystem::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

}  // namespace

std::string gnuplot_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string run_gnuplot(const std::string& script) {
  if (!on_path("gnuplot")) return "gnuplot is not on PATH (Debian package gnuplot-nox; scripts/setup.sh installs it)";
  std::fflush(nullptr);
  FILE* pipe = popen("gnuplot", "w");
  if (!pipe) return "could not start gnuplot";
  std::fwrite(script.data(), 1, script.size(), pipe);
  const int status = pclose(pipe);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return "gnuplot failed (exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")";
  return "";
}

}  // namespace trainsim
