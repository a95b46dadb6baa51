// The files `trainsim sweep --emit-jobs DIR` writes besides the manifest, so that the points can
// run anywhere that sees DIR and the trainsim binary at the same paths: jobs.txt (one shell
// command per point, for GNU parallel: `parallel < DIR/jobs.txt`, or --sshloginfile across
// hosts), sweep.sbatch (a Slurm job array, one task per point) and merge.sh (the merge step).
// Pure: the caller writes them.
#pragma once
#include <string>

namespace trainsim {

// `s` as one POSIX shell word ('...', a quote written as '\'').
[[nodiscard]] std::string shell_quoted(const std::string& s);

struct JobScripts {
  std::string jobs;    // jobs.txt: line i runs point i
  std::string sbatch;  // sweep.sbatch
  std::string merge;   // merge.sh
};

// `trainsim` and `dir` are absolute paths; `points` is the grid's size (at least 1).
[[nodiscard]] JobScripts job_scripts(const std::string& trainsim, const std::string& dir, int points);

}  // namespace trainsim
