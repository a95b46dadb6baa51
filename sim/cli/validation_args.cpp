#include "sim/cli/validation_args.hpp"

#include <sstream>

#include <unistd.h>

#include <filesystem>

#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"

namespace trainsim {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::vector<std::string> measurements_paths(const ParsedArgs& args) {
  if (!args.positionals().empty()) return args.positionals();
  const std::filesystem::path p = data_dir() / "validation" / "measurements.yaml";
  std::error_code ec;
  const std::filesystem::path shown = std::filesystem::proximate(p, ec);
  return {ec ? p.string() : shown.string()};
}

MeasurementSet load_measurement_args(const ParsedArgs& args) {
  const std::vector<std::string> paths = measurements_paths(args);
  return load_measurements(std::vector<std::filesystem::path>(paths.begin(), paths.end()));
}

std::optional<Split> split_option(const ParsedArgs& args) {
  if (!args.has("split")) return std::nullopt;
  const std::string s = args.get("split");
  if (s == split_name(Split::kCalibrate)) return Split::kCalibrate;
  if (s == split_name(Split::kCheck)) return Split::kCheck;
  throw UserError("--split: '" + s + "'; valid: calibrate, check");
}

int jobs_option(const ParsedArgs& args, int fallback) {
  const int jobs = option_int(args, "jobs", fallback);
  if (jobs < 1 || jobs > 64) throw UserError("--jobs: expected 1..64, got " + std::to_string(jobs));
  return jobs;
}

OptionSpec jobs_option_spec() {
  return {"jobs", "N", "simulate N rows at once, each in its own process (default 2: this machine's cores)"};
}

void progress_line(const std::string& text) {
  const std::string line = text + "\n";
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

}  // namespace trainsim
