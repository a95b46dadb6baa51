#include "sim/sweep/job_scripts.hpp"

#include <sstream>

namespace trainsim {

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

JobScripts job_scripts(const std::string& trainsim, const std::string& dir, int points) {
  const std::string bin = shell_quoted(trainsim), folder = shell_quoted(dir);
  JobScripts s;
  std::ostringstream jobs;
  for (int i = 0; i < points; ++i) jobs << bin << " sweep --point " << i << " --jobs-dir " << folder << "\n";
  s.jobs = jobs.str();

  std::ostringstream sb;
  sb << "#!/bin/bash\n"
     << "# A Slurm job array running one trainsim sweep point per task (written by trainsim sweep --emit-jobs).\n"
     << "# Submit: sbatch " << shell_quoted(dir + "/sweep.sbatch") << "; when every task is done: "
     << shell_quoted(dir + "/merge.sh") << " [--csv F] [--markdown F] [--plot F.svg]\n"
     << "#SBATCH --job-name=trainsim-sweep\n"
     << "#SBATCH --array=0-" << points - 1 << "\n"
     << "#SBATCH --ntasks=1\n"
     << "#SBATCH --cpus-per-task=1\n"
     << "#SBATCH --output=" << dir << "/slurm-%A_%a.out\n"
     << "set -euo pipefail\n"
     << "exec " << bin << " sweep --point \"${SLURM_ARRAY_TASK_ID:?run me with sbatch (a Slurm array task)}\" --jobs-dir "
     << folder << "\n";
  s.sbatch = sb.str();

  std::ostringstream merge;
  merge << "#!/bin/sh\n"
        << "# Merges the point results of this folder into the sweep's table (written by trainsim sweep --emit-jobs).\n"
        << "# Options as for a local sweep: --csv F --markdown F --plot F.svg --metric M\n"
        << "exec " << bin << " sweep --merge " << folder << " \"$@\"\n";
  s.merge = merge.str();
  return s;
}

}  // namespace trainsim
