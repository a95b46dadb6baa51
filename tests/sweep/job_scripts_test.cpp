// The scale-out files: one command per point for GNU parallel, a Slurm array of the same size,
// and the merge step; every path reaches the shell as one word.
#include <catch2/catch.hpp>

#include "sim/sweep/job_scripts.hpp"

using namespace trainsim;

TEST_CASE("shell quoting keeps spaces and quotes inside one word", "[sweep]") {
  CHECK(shell_quoted("/a b/c") == "'/a b/c'");
  CHECK(shell_quoted("it's") == "'it'\\''s'");
}

TEST_CASE("jobs.txt has one line per point and the Slurm array one task per point", "[sweep]") {
  const JobScripts s = job_scripts("/opt/trainsim", "/shared/jobs dir", 5);
  CHECK(s.jobs ==
        "'/opt/trainsim' sweep --point 0 --jobs-dir '/shared/jobs dir'\n"
        "'/opt/trainsim' sweep --point 1 --jobs-dir '/shared/jobs dir'\n"
        "'/opt/trainsim' sweep --point 2 --jobs-dir '/shared/jobs dir'\n"
        "'/opt/trainsim' sweep --point 3 --jobs-dir '/shared/jobs dir'\n"
        "'/opt/trainsim' sweep --point 4 --jobs-dir '/shared/jobs dir'\n");
  CHECK_THAT(s.sbatch, Catch::StartsWith("#!/bin/bash\n") && Catch::Contains("\n#SBATCH --array=0-4\n") &&
                           Catch::Contains("--point \"${SLURM_ARRAY_TASK_ID:?"));
  CHECK_THAT(s.merge, Catch::Contains("exec '/opt/trainsim' sweep --merge '/shared/jobs dir' \"$@\""));
}
