// `trainsim estimate` end to end: the formulas equal the replay on runs with one stage and one
// dimension at a time, no overlap and no contention (comm_interference 0); the table, JSON and
// SymPy outputs; bad input.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/json_check.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/json_number.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {
const std::string kMixtral = (kRoot / "workloads/mixtral-8x7b-h100.yaml").string();

// Llama 2 7B cut to 4 layers, 4 sequences, no interference, plus `sets`.
std::string small(const std::string& sets) {
  return "estimate " + kDefault + " --json --theta defaults --set model.layers=4 --set global_batch=4 "
         "--set platform.accelerator.comm_interference=0 --set strategy.sequence_parallel=false " + sets;
}
}  // namespace

// Every case has exactly one source of time beyond compute; the formula's closed forms (ring or NVLS
// all-reduce, p2p hop, bucketed DP reduction, CP gather around the local attention block, 1F1B
// bubble over the stage that is not the slowest) must then give the replay's time.
TEST_CASE("formula equals the replay with one stage or one dimension at a time, no overlap, no contention",
          "[cli][estimate]") {
  const char* cases[] = {
      "--set devices=1 --set strategy.tp=1 --set strategy.pp=1 --set strategy.dp=1",
      "--set devices=2 --set strategy.tp=2 --set strategy.pp=1 --set strategy.dp=1",
      "--set devices=2 --set strategy.tp=2 --set strategy.pp=1 --set strategy.dp=1 --set strategy.sequence_parallel=true",
      // Blocking launches (no framework host cost): the weight gradients wait for the TP all-reduce too.
      "--set devices=2 --set strategy.tp=2 --set strategy.pp=1 --set strategy.dp=1 --set framework.host.launch_blocking=true",
      // Without the asynchronous TP all-reduce (Megatron-LM of 2021): the same, launches asynchronous.
      "--set devices=2 --set strategy.tp=2 --set strategy.pp=1 --set strategy.dp=1 --set strategy.overlap.tp_grad_reduce=false",
      // TP communication pipelined with its GEMMs (overlap.tp_comm), tp 8 with SP: in the backward the
      // re-gather of a column-parallel GEMM's input runs beside its input-gradient GEMM and the
      // reduce-scatter after it, beside the weight gradients (Transformer Engine's bulk overlaps); on
      // NVLink cut to 40 GB/s each collective outlasts the GEMM it runs beside, so every wait shows.
      "--set devices=8 --set strategy.tp=8 --set strategy.pp=1 --set strategy.dp=1 --set strategy.sequence_parallel=true "
      "--set strategy.overlap.tp_comm=true",
      "--set devices=8 --set strategy.tp=8 --set strategy.pp=1 --set strategy.dp=1 --set strategy.sequence_parallel=true "
      "--set strategy.overlap.tp_comm=true --set platform.tiers.0.bandwidth=40GBps",
      // The same with the pipelined collectives' bytes at 1/1.5 of the bandwidth (overlap_comm_slowdown).
      "--set devices=8 --set strategy.tp=8 --set strategy.pp=1 --set strategy.dp=1 --set strategy.sequence_parallel=true "
      "--set strategy.overlap.tp_comm=true --set platform.tiers.0.bandwidth=40GBps "
      "--set platform.accelerator.overlap_comm_slowdown=1.5",
      "--set devices=2 --set strategy.tp=1 --set strategy.pp=2 --set strategy.dp=1",
      // The output layer's weight gradients of all 4 micro-batches deferred to the flush.
      "--set devices=2 --set strategy.tp=1 --set strategy.pp=2 --set strategy.dp=1 --set strategy.defer_output_wgrad=4",
      // Uneven stages (1 and 3 of the 4 layers): the bubble is the lighter stage's fill and drain.
      "--set devices=2 --set strategy.tp=1 --set strategy.pp=2 --set strategy.dp=1 --set strategy.first_stage_layers=1 "
      "--set strategy.last_stage_layers=3",
      // CP alone: its 2 ranks hold the same weights, so their gradients are reduced over them too
      // (Megatron-Core's data-parallel group with CP), exposed here with overlap off.
      "--set devices=2 --set strategy.tp=1 --set strategy.pp=1 --set strategy.dp=1 --set strategy.cp=2 "
      "--set strategy.overlap.dp_grad_reduce=false --set strategy.overlap.zero_param_gather=false",
      "--set devices=2 --set strategy.tp=1 --set strategy.pp=1 --set strategy.dp=2 --set strategy.zero_stage=0 "
      "--set strategy.overlap.dp_grad_reduce=false --set strategy.overlap.zero_param_gather=false",
      "--set devices=2 --set strategy.tp=1 --set strategy.pp=1 --set strategy.dp=2 --set strategy.zero_stage=1 "
      "--set strategy.overlap.dp_grad_reduce=false --set strategy.overlap.zero_param_gather=false",
  };
  std::vector<std::string> runs;
  for (const char* c : cases) runs.push_back(small(c));
  // EP alone: Mixtral 8x7B cut to 2 layers, dispatch and combine over 2 and over 8 members (the
  // backward's exchange after the experts' weight gradients).
  for (const char* ep : {"--set devices=2 --set strategy.dp=2 --set strategy.ep=2 --set global_batch=4",
                         "--set devices=8 --set strategy.dp=8 --set strategy.ep=8 --set global_batch=8"})
    runs.push_back("estimate " + kMixtral + " --json --theta defaults --set model.layers=2 "
                   "--set platform.accelerator.comm_interference=0 --set strategy.tp=1 --set strategy.pp=1 "
                   "--set strategy.zero_stage=0 --set strategy.overlap.dp_grad_reduce=false "
                   "--set strategy.overlap.zero_param_gather=false " + std::string(ep));
  for (const std::string& c : runs) {
    INFO(c);
    const CommandResult r = run_trainsim(c);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const double formula = number_after(r.out, "formula_iteration_time_s");
    const double replay = number_after(r.out, "replay_iteration_time_s");
    CHECK(formula == Approx(replay).epsilon(1e-9));
  }
}

// Megatron-Core's per-bucket norm and 1/dp scaling before each reduction, on two stages and dp 2: with
// the overlapped reduction each stage's kernels delay the drain, without it they follow each stage's
// backward; in the formulas as in the replay (two stages with data parallelism are not one of the
// exact cases above, so the kernels' added time is compared, with NVLink sped up so that the
// reductions, which the kernels shift, take microseconds).
TEST_CASE("formula and replay add the same time for the per-bucket gradient kernels of two stages", "[cli][estimate]") {
  // zb-h1 completes the last weight gradients in passes of their own, off the drain: each stage adds
  // its own kernels only.
  const std::pair<const char*, const char*> cases[] = {{"true", "1f1b"}, {"false", "1f1b"}, {"true", "zb-h1"}};
  for (const auto& [overlap, schedule] : cases) {
    auto times = [overlap = overlap, schedule = schedule](bool on) {
      const std::string flag = on ? "true" : "false";
      const CommandResult r = run_trainsim(small(
          "--set devices=4 --set strategy.tp=1 --set strategy.pp=2 --set strategy.dp=2 --set strategy.zero_stage=0 "
          "--set strategy.schedule=" + std::string(schedule) +
          " --set strategy.overlap.zero_param_gather=false --set strategy.overlap.dp_grad_reduce=" + std::string(overlap) +
          " --set platform.tiers.0.bandwidth=100000GBps --set platform.tiers.0.latency=0.01us" +
          " --set strategy.grad_nan_check=" + flag + " --set strategy.grad_scale_kernel=" + flag));
      REQUIRE(r.exit_code == 0);
      return std::pair<double, double>{number_after(r.out, "formula_iteration_time_s"),
                                       number_after(r.out, "replay_iteration_time_s")};
    };
    INFO("overlap.dp_grad_reduce " << overlap << ", schedule " << schedule);
    const auto off = times(false), on = times(true);
    REQUIRE(on.second > off.second);
    CHECK(on.first - off.first == Approx(on.second - off.second).epsilon(1e-3));
  }
}

// Four stages, one layer per chunk, 8 micro-batches, 2 ms between stages (far above each message's
// transfer), no interference. With sends beside compute the fill and drain wait for their hops,
// 2(pv-1) of them interleaved (sim/strategy/schedule_shape.hpp): 6, 14 and 30 for v 1, 2, 4, which
// the formulas took as 6 in every case before (6 % fast at v 4). Blocking sends wait in every pass,
// and the fill and drain run through those waits: no hop on top (it used to add 6: 1.3-4 % slow).
// Within 0.5 %: interleaved blocking runs differ by 0.3 % (the formulas split a stage's waits between
// its forward and backward in proportion to their compute, the replay where the sends are).
TEST_CASE("formula and replay agree on a latency-bound pipeline, interleaved or not, sends blocking or not",
          "[cli][estimate]") {
  for (const char* overlap : {"true", "false"})
    for (int v : {1, 2, 4}) {
      const std::string schedule = v == 1 ? "1f1b" : "interleaved";
      INFO("overlap.pp_comm " << overlap << ", v " << v);
      const CommandResult r = run_trainsim(
          "estimate " + kDefault + " --json --theta defaults --set model.layers=" + std::to_string(4 * v) +
          " --set global_batch=8 --set devices=4 --set strategy.tp=1 --set strategy.pp=4 --set strategy.dp=1 "
          "--set strategy.sequence_parallel=false --set strategy.recompute=none --set strategy.schedule=" + schedule +
          " --set strategy.virtual_stages=" + std::to_string(v) + " --set strategy.overlap.pp_comm=" + overlap +
          " --set platform.tiers.0.latency=2ms --set platform.accelerator.comm_interference=0");
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      CHECK(number_after(r.out, "formula_iteration_time_s") ==
            Approx(number_after(r.out, "replay_iteration_time_s")).epsilon(5e-3));
    }
}

TEST_CASE("estimate prints a term table with the replay, or without it under --no-replay", "[cli][estimate]") {
  const CommandResult with = run_trainsim("estimate " + kDefault + " --set model.layers=4");
  INFO(with.err);
  REQUIRE(with.exit_code == 0);
  for (const char* term : {"forward", "backward", "exposed_tp", "exposed_dp", "bubble_idle", "iteration", "replay_s"})
    CHECK(with.out.find(term) != std::string::npos);
  const CommandResult without = run_trainsim("estimate " + kDefault + " --no-replay --json");
  REQUIRE(without.exit_code == 0);
  CHECK(JsonCheck::valid(without.out));
  // no replay key (the text may hold 'replay' elsewhere: the theta file's path names the checkout)
  CHECK(without.out.find("\"replay") == std::string::npos);
  CHECK(number_after(without.out, "formula_iteration_time_s") > 0);
}

TEST_CASE("estimate --symbolic prints SymPy statements for T and for each collective in the model dimensions", "[cli][estimate]") {
  const CommandResult r = run_trainsim("estimate " + kMixtral + " --no-replay --symbolic");
  REQUIRE(r.exit_code == 0);
  for (const char* line : {"\nc, s_tp, s_cp, s_ep, s_dp, o, i, b = ", "\npipeline = m*Max(t_0, t_1, t_2, t_3)",
                           "\nT = Max(end_0, end_1, end_2, end_3)",
                           // per-call closed forms in the model's dimensions: Mixtral's EP over 8 members of
                           // one NVSwitch node, direct all-to-all: alpha + (n-1)/n S/beta
                           "\nS_ep = b*s/cp/1*2*1*h*e", "\nep_all_to_all = (alpha + (n - 1)/n*S/beta).subs({n: 8, g: 8, S: S_ep"})
    CHECK(r.out.find(line) != std::string::npos);
}

TEST_CASE("estimate --symbolic output is all code or comments, so that it runs under exec; not with --json",
          "[cli][estimate]") {
  const CommandResult r = run_trainsim("estimate " + kDefault + " --no-replay --symbolic");
  REQUIRE(r.exit_code == 0);
  const size_t table = r.out.find("\n# term ");
  CHECK(table != std::string::npos);
  CHECK(r.out.find("\n# run ") != std::string::npos);
  CHECK(r.out.find("\nterm ") == std::string::npos);  // no uncommented table line
  CHECK(r.out.find("\nT = ") < table);                 // the code comes first
  const CommandResult both = run_trainsim("estimate " + kDefault + " --no-replay --symbolic --json");
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("give one") != std::string::npos);
}

TEST_CASE("estimate says when the strategy does not fit in memory, in the table, the JSON and a warning",
          "[cli][estimate]") {
  // default.yaml's stage 0 needs 25.5 GiB per device (trainsim check); 20 GiB cards cannot hold it.
  const std::string run = "estimate " + kDefault + " --no-replay --set platform.accelerator.memory_capacity=20GiB";
  const CommandResult table = run_trainsim(run);
  CHECK(table.exit_code == 0);
  CHECK(table.out.find("memory     stage 0 needs 25.5 GiB per device of 20.0 GiB: DOES NOT FIT") != std::string::npos);
  CHECK(table.err.find("warning: the strategy does not fit in memory") != std::string::npos);
  const CommandResult json = run_trainsim(run + " --json");
  CHECK(json.out.find("\"fits_in_memory\": false") != std::string::npos);
  const CommandResult fits = run_trainsim("estimate " + kDefault + " --no-replay --json");
  CHECK(fits.out.find("\"fits_in_memory\": true") != std::string::npos);
  CHECK(fits.err.find("does not fit") == std::string::npos);
}

TEST_CASE("estimate with a theta file that does not exist says which file", "[cli][estimate]") {
  const CommandResult r = run_trainsim("estimate " + kDefault + " --no-replay --theta /nonexistent/x.theta.yaml");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("/nonexistent/x.theta.yaml") != std::string::npos);
}

TEST_CASE("estimate warns when the theta file was fitted for another platform", "[cli][estimate]") {
  const std::string other = (kRoot / "platforms/theta/ascend-910b-pod.yaml").string();
  const CommandResult r = run_trainsim("estimate " + kDefault + " --no-replay --theta " + other);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("was fitted for platform 'ascend-910b-pod', not 'dgx-h100-superpod'") != std::string::npos);
  const CommandResult own = run_trainsim("estimate " + kDefault + " --no-replay");
  CHECK(own.err.find("was fitted for platform") == std::string::npos);
}

// The formulas' per-bucket kernels where the host is the limit: the norm takes its launch when that is
// longer than its device time, the scaling after the norm's synchronisation waits for its launch before
// it runs, and blocking launches add every launch. One bucket (a bucket size larger than the stage's gradients), two kernels: the norm and the
// scaling, about 5 ms of device time together here.
TEST_CASE("the formulas' per-bucket gradient kernels take their launches where the host is the limit", "[cli][estimate]") {
  const std::string base =
      "estimate " + kDefault + " --symbolic --set model.layers=4 --set devices=2 --set strategy.tp=1 "
      "--set strategy.pp=1 --set strategy.dp=2 --set global_batch=8 --set strategy.grad_nan_check=true "
      "--set strategy.grad_scale_kernel=true --set strategy.grad_bucket_size=100GB --set framework=megatron-core ";
  auto kernels = [&](const std::string& sets) {
    const CommandResult r = run_trainsim(base + sets);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const size_t at = r.out.find("\nK_0 = ");
    REQUIRE(at != std::string::npos);
    return std::stod(r.out.substr(at + 7));
  };
  const double device = kernels("--set framework.host.launch=0us");
  const double scaling = kernels("--set framework.host.launch=0us --set strategy.grad_nan_check=false");
  REQUIRE(device > 0.002);
  REQUIRE(device < 0.01);
  REQUIRE(scaling > 0);
  REQUIRE(scaling < device);
  // The norm takes its 10 ms launch; the scaling, issued to an empty queue after the norm's host
  // synchronisation, its launch and then its device time.
  CHECK(kernels("--set framework.host.launch=10ms") == Approx(2 * 0.010 + scaling));
  CHECK(kernels("--set framework.host.launch=10ms --set framework.host.launch_blocking=true") ==
        Approx(device + 2 * 0.010));
}
