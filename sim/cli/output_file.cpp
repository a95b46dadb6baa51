#include "sim/cli/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"

namespace trainsim {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& option, const std::string& path, int error) {
  throw WriteError(option + ": cannot write '" + path + "': " + std::strerror(error));
}

// Fills `out` and makes sure every byte was accepted; returns errno of the failure, 0 if none.
int fill_and_flush(std::ofstream& out, const std::function<void(std::ostream&)>& fill) {
  errno = 0;
  fill(out);
  out.flush();
  if (!out) return errno != 0 ? errno : EIO;
  out.close();
  return out.fail() ? (errno != 0 ? errno : EIO) : 0;
}

}  // namespace

void write_output_file(const std::string& path, const std::string& option,
                       const std::function<void(std::ostream&)>& fill) {
  std::error_code ec;
  const bool special = fs::exists(path, ec) && !fs::is_regular_file(path, ec);
  if (fs::is_directory(path, ec)) fail(option, path, EISDIR);
  const std::string target = special ? path : path + ".partial";
  std::ofstream out(target, std::ios::binary | std::ios::trunc);
  if (!out) fail(option, path, errno != 0 ? errno : EACCES);
  const int error = fill_and_flush(out, fill);
  if (error != 0) {
    if (!special) std::remove(target.c_str());
    fail(option, path, error);
  }
  if (special) return;
  fs::rename(target, path, ec);
  if (ec) {
    std::remove(target.c_str());
    fail(option, path, ec.value());
  }
}

void require_distinct_outputs(const ParsedArgs& a, std::initializer_list<const char*> options) {
  std::vector<std::pair<std::string, std::string>> seen;  // (path as the file system resolves it, option)
  for (const char* option : options) {
    if (!a.has(option)) continue;
    const std::string given = a.get(option);
    std::error_code ec;
    if (fs::exists(given, ec) && !fs::is_regular_file(given, ec)) continue;  // /dev/stdout and the like
    const fs::path resolved = fs::weakly_canonical(fs::absolute(given), ec);
    const std::string key = ec ? given : resolved.string();
    for (const auto& [path, other] : seen)
      if (path == key)
        throw UserError("--" + other + " and --" + option + " name the same file (" + given +
                        "); give each output a file of its own");
    seen.emplace_back(key, option);
  }
}

}  // namespace trainsim
