// RunSpec -> run YAML text (the format of workloads/*.yaml), so that a run composed by a command
// (`search`'s winner) is a file `simulate` loads back into the same RunSpec. Every field is
// written, sizes in bytes with all 17 significant digits, so nothing rounds on the way back.
#pragma once
#include <string>

#include "sim/config/run_spec.hpp"

namespace trainsim {

struct RunReferencesText {
  std::string model;     // as the run names it: a preset name or a path
  std::string platform;
};

// `comment` lines (may be empty; each line is prefixed with "# ") head the file.
[[nodiscard]] std::string run_yaml(const RunSpec& run, const RunReferencesText& refs, const std::string& comment);

// The names a run YAML spells these values with (the loader reads the same spellings).
[[nodiscard]] const char* recompute_name(Recompute r);
// The selective-recompute modules that are on, comma-separated, in a fixed order ("" for none).
[[nodiscard]] std::string recompute_module_list(const RecomputeModules& m);
[[nodiscard]] const char* offload_name(Offload o);

}  // namespace trainsim
