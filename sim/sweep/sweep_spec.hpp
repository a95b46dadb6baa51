// What defines a sweep, apart from where its outputs go: the run, its --set overrides, the --vary
// axes, --zip and the --search settings. `--emit-jobs` writes it to a manifest in the jobs folder,
// from which every job and the merge rebuild the same grid. Pure.
#pragma once
#include <string>
#include <vector>

namespace trainsim {

struct SweepSpec {
  std::string run_file;               // absolute, so jobs find it from any folder
  std::string run_name;               // the run's name: field, for the report's title
  std::vector<std::string> sets;      // --set KEY=VALUE, applied to every point before its own values
  std::vector<std::string> varies;    // --vary KEY=V1,V2,... as given
  bool zip = false;
  bool search = false;                // re-plan the strategy at every point
  int top = 3;                        // --search: strategies replayed per point
  std::vector<std::string> space, fix;  // --search restrictions, as `trainsim search` takes them
  std::string theta;                  // --theta file; "" for the platform's own
};

// "key value" lines, one per setting, after a header line. No value may hold a line break.
[[nodiscard]] std::string sweep_manifest_text(const SweepSpec& s);
// Throws UserError naming `source` for a file that is not a manifest.
[[nodiscard]] SweepSpec parse_sweep_manifest(const std::string& text, const std::string& source);

}  // namespace trainsim
