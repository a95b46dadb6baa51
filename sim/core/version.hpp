// The build's version, for provenance in outputs (the theta files of `trainsim fit`) and
// `trainsim --version`: the CMake project VERSION and, when the build was configured from a git
// checkout, its commit. Fixed at build time, so outputs stay deterministic for a given build.
#pragma once
#include <string>

namespace trainsim {

[[nodiscard]] std::string version_number();  // "0.1.0"
[[nodiscard]] std::string git_commit();      // "1a2b3c4d5e6f", "...-modified", or "" (not a checkout)
// "trainsim 0.1.0 (git 1a2b3c4d5e6f)", or without the parenthesis when there is no commit.
[[nodiscard]] std::string version_text();

}  // namespace trainsim
