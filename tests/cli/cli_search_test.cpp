// `trainsim search` end to end: the ranked table and JSON, the written winner that `simulate`
// reproduces to the printed replayed time, the baseline comparison, and the answers to inputs
// that cannot work (nothing fits: exit 2 naming the closest strategy; bad options).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/json_check.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/json_number.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {
// The default run's model, cluster, devices, batch and sequence; a small space (micro-batch 1 or
// 2, no interleaving) keeps the replays of the top 3 quick.
const std::string kSearch =
    "search --model llama2-7b --platform dgx-h100-superpod --devices 16 --global-batch 32 --seq 4096 "
    "--space micro_batch=1,2 --space schedule=1f1b,zb-h1 --top 3 ";

}  // namespace

TEST_CASE("search writes a winner that simulate reproduces to the replayed time it printed", "[cli][search]") {
  const std::string out = scratch("trainsim_search_best.yaml");
  const CommandResult r = run_trainsim(kSearch + "--json --out " + out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  REQUIRE(JsonCheck::valid(r.out));
  const double replayed = number_after(r.out, "replay_s", r.out.find("\"ranked\""));
  const std::string result = scratch("trainsim_search_best.json");
  REQUIRE(run_trainsim("simulate " + out + " --json " + result).exit_code == 0);
  CHECK(number_after(slurp(result), "iteration_time_s") == Approx(replayed).epsilon(1e-9));
  fs::remove(out);
  fs::remove(result);
}

TEST_CASE("search prints the counts, a ranked table and the baseline's speedup with the terms that shrank", "[cli][search]") {
  const CommandResult r = run_trainsim(kSearch + "--baseline " + kDefault + " --parallel 1");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("enumerated =") && Catch::Contains("pruned by bound"));
  CHECK_THAT(r.out, Catch::Contains("rank  formula_s  replay_s"));
  CHECK_THAT(r.out, Catch::Contains("baseline     tp2 pp2 dp4"));
  CHECK_THAT(r.out, Catch::Contains("x faster (replayed)") && Catch::Contains("why (formula terms"));
}

TEST_CASE("search output is byte-identical from run to run", "[cli][search]") {
  const std::string args = kSearch + "--no-replay --json";
  CHECK(run_trainsim(args).out == run_trainsim(args).out);
}

TEST_CASE("search exits 2 naming the closest strategy when nothing fits in memory", "[cli][search]") {
  // GPT-3 175B's weights and fp32 optimizer state alone take ~2.8 TB: 8 A100 of 80 GiB cannot hold them.
  const CommandResult r = run_trainsim(
      "search --model gpt3-175b --platform dgx-a100-superpod --devices 8 --global-batch 8 --seq 2048 --precision fp16 --no-replay");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("no strategy fits in 80.0 GiB") && Catch::Contains("the closest, tp") &&
                        Catch::Contains("GiB over"));
}

TEST_CASE("search refuses missing options, unknown knobs and a baseline of another run", "[cli][search]") {
  CHECK(run_trainsim("search --model llama2-7b --devices 8 --global-batch 8 --seq 2048").exit_code == 2);
  const CommandResult knob = run_trainsim(kSearch + "--space tpp=2");
  CHECK(knob.exit_code == 2);
  CHECK_THAT(knob.err, Catch::Contains("unknown search knob 'tpp'"));
  const CommandResult other = run_trainsim(
      "search --model llama2-7b --platform dgx-h100-superpod --devices 8 --global-batch 32 --seq 4096 --baseline " + kDefault);
  CHECK(other.exit_code == 2);
  CHECK_THAT(other.err, Catch::Contains("has devices 16, the search 8"));
  const CommandResult fixed = run_trainsim(kSearch + "--fix schedule=foo");  // named as the option it came from
  CHECK(fixed.exit_code == 2);
  CHECK_THAT(fixed.err, Catch::Contains("--fix schedule: 'foo' is not a value of schedule"));
  for (const char* parallel : {"0", "-3"}) {  // refused before the search runs, as --top 0 is
    const CommandResult r = run_trainsim(kSearch + "--parallel " + parallel);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("--parallel: ") && Catch::Contains("valid: 1 or more"));
    CHECK_THAT(r.err, !Catch::Contains("search: "));
  }
}

TEST_CASE("a baseline that does not fit is reported with how far over it is, and not replayed", "[cli][search]") {
  // Megatron-LM's defaults for Llama 2 7B on 16 H100: pure data parallelism without the distributed
  // optimizer keeps 2 (bf16 weights) + 4 (fp32 gradients) + 12 (fp32 master weights and two Adam
  // moments) = 18 bytes x 6.7e9 parameters = 121 GB per device, more than 80 GiB.
  const std::string baseline = scratch("trainsim_search_oom_baseline.yaml");
  {
    std::ofstream f(baseline);
    f << "name: megatron-defaults\nmodel: llama2-7b\nplatform: dgx-h100-superpod\ndevices: 16\nprecision: bf16\n"
         "seq_len: 4096\nglobal_batch: 32\nmicro_batch: 1\nstrategy: {tp: 1, pp: 1, dp: 16}\n";
  }
  const CommandResult r = run_trainsim(kSearch + "--baseline " + baseline + " --parallel 1");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("does NOT fit: needs") && Catch::Contains("GiB over), so it cannot run"));
  CHECK_THAT(r.err, Catch::Contains("replayed 3 runs"));  // the top 3, not the baseline
  fs::remove(baseline);
}
