#include "sim/cli/sweep_jobs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "sim/cli/output_file.hpp"
#include "sim/core/error.hpp"
#include "sim/sweep/grid.hpp"
#include "sim/sweep/job_scripts.hpp"
#include "sim/sweep/merge.hpp"

namespace trainsim {
namespace fs = std::filesystem;
namespace {

const char* const kManifest = "sweep.manifest";

std::optional<std::string> read_text(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// This program's own path, so the jobs run the same build.
std::string own_binary() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw UserError("--emit-jobs: cannot tell where the trainsim binary is (/proc/self/exe: " + ec.message() + ")");
  return self.string();
}

void write_script(const fs::path& path, const std::string& text, bool executable) {
  write_output_file(path.string(), "--emit-jobs", [&](std::ostream& out) { out << text; });
  if (executable) ::chmod(path.c_str(), 0755);
}

}  // namespace

void emit_sweep_jobs(const SweepSpec& spec, const std::string& dir, int points) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw WriteError("--emit-jobs " + dir + ": cannot create the folder: " + ec.message());
  const fs::path folder = fs::absolute(dir).lexically_normal();
  for (const auto& entry : fs::directory_iterator(folder, ec))
    if (entry.path().extension() == ".result")
      throw UserError("--emit-jobs " + dir + ": the folder already holds point results (" + entry.path().filename().string() +
                      "); emit into an empty folder, or remove them, so results of two sweeps never mix");
  write_script(folder / kManifest, sweep_manifest_text(spec), false);
  const JobScripts scripts = job_scripts(own_binary(), folder.string(), points);
  write_script(folder / "jobs.txt", scripts.jobs, false);
  write_script(folder / "sweep.sbatch", scripts.sbatch, true);
  write_script(folder / "merge.sh", scripts.merge, true);
}

SweepSpec read_sweep_manifest(const std::string& dir) {
  const fs::path path = fs::path(dir) / kManifest;
  const auto text = read_text(path);
  if (!text) throw UserError(dir + ": no " + std::string(kManifest) + " here; this is not a folder written by trainsim sweep --emit-jobs");
  return parse_sweep_manifest(*text, path.string());
}

void write_point_result(const std::string& dir, int index, const std::string& text) {
  const fs::path path = fs::path(dir) / point_file_name(index);
  write_output_file(path.string(), "--jobs-dir", [&](std::ostream& out) { out << text; });
}

std::vector<PointResult> read_point_results(const SweepSpec& spec, const std::string& dir) {
  const std::vector<SweepPoint> grid = expand_grid(parse_varies(spec.varies), spec.zip);
  std::vector<std::optional<std::string>> texts;
  for (const SweepPoint& p : grid) texts.push_back(read_text(fs::path(dir) / point_file_name(p.index)));
  return merge_point_results(grid, texts, dir);
}

}  // namespace trainsim
