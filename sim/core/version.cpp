// The build's version (see version.hpp); CMakeLists.txt defines the two macros for this file only.
#include "sim/core/version.hpp"

#ifndef TRAINSIM_VERSION
#define TRAINSIM_VERSION "unknown"
#endif
#ifndef TRAINSIM_GIT_COMMIT
#define TRAINSIM_GIT_COMMIT ""
#endif

namespace trainsim {

std::string version_number() { return TRAINSIM_VERSION; }

std::string git_commit() { return TRAINSIM_GIT_COMMIT; }

std::string version_text() {
  const std::string commit = git_commit();
  return "trainsim " + version_number() + (commit.empty() ? "" : " (git " + commit + ")");
}

}  // namespace trainsim
