// `trainsim sweep` end to end: every point is checked before any replay (bad keys and values exit 2
// naming the point, key and value), a point's figures are those `simulate` and `search` print for
// the same overrides, outputs are byte-identical from run to run and between a local sweep and the
// merge of its emitted jobs run by GNU parallel or by the Slurm array's body, and the errors of
// the scale-out path.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/run_command.hpp"
#include "tests/support/paths.hpp"
#include "tests/support/json_number.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {
// Three inter-node (InfiniBand) bandwidths of the default run's cluster, its own (400 Gb/s) among them.
const std::string kBandwidths = "sweep " + kDefault + " --vary platform.tiers.1.bandwidth=100Gbps,400Gbps,1600Gbps ";

std::string fresh_dir(const std::string& name) {
  const std::string dir = scratch(name);
  fs::remove_all(dir);
  return dir;
}

int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Column `column` of CSV line `line` (1 = first data row); the cells here hold no commas.
std::string csv_cell(const std::string& csv, int line, int column) {
  std::istringstream in(csv);
  std::string l;
  for (int i = 0; i <= line; ++i) std::getline(in, l);
  std::istringstream cells(l);
  std::string cell;
  for (int i = 0; i <= column; ++i) std::getline(cells, cell, ',');
  return cell;
}
}  // namespace

TEST_CASE("sweep refuses an unknown key before replaying naming the point the key and the valid keys", "[cli][sweep]") {
  const CommandResult r = run_trainsim("sweep " + kDefault + " --progress --vary strategy.tpp=1,2");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("point 0 (strategy.tpp=1)") && Catch::Contains("tpp") && Catch::Contains("valid"));
  CHECK_THAT(r.err, !Catch::Contains("done"));
  CHECK(r.out.empty());
}

TEST_CASE("sweep checks every point first so a bad value at the last point stops it before any replay", "[cli][sweep]") {
  // tp 3 does not divide Llama 2 7B's 32 heads (and 3 x 2 x 4 is not 16 devices).
  const CommandResult r = run_trainsim("sweep " + kDefault + " --progress --vary strategy.tp=2,3");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("point 1 (strategy.tp=3)"));
  CHECK_THAT(r.err, !Catch::Contains("1/2 done"));
  const CommandResult unit = run_trainsim("sweep " + kDefault + " --vary platform.tiers.1.bandwidth=100Gbps,fast");
  CHECK(unit.exit_code == 2);
  CHECK_THAT(unit.err, Catch::Contains("point 1 (platform.tiers.1.bandwidth=fast)") && Catch::Contains("'fast'"));
}

TEST_CASE("sweep refuses malformed options with exit 2", "[cli][sweep]") {
  const CommandResult syntax = run_trainsim("sweep " + kDefault + " --vary strategy.tp");
  CHECK(syntax.exit_code == 2);
  CHECK_THAT(syntax.err, Catch::Contains("--vary 'strategy.tp': no '='"));
  const CommandResult zip = run_trainsim("sweep " + kDefault + " --zip --vary devices=16,32 --vary strategy.dp=4");
  CHECK(zip.exit_code == 2);
  CHECK_THAT(zip.err, Catch::Contains("devices has 2") && Catch::Contains("strategy.dp has 1"));
  CHECK(run_trainsim("sweep " + kDefault).exit_code == 2);
  CHECK_THAT(run_trainsim("sweep " + kDefault + " --vary seq_len=2048 --top 2").err, Catch::Contains("only with --search"));
  CHECK_THAT(run_trainsim("sweep " + kDefault + " --vary seq_len=2048 --metric speed").err, Catch::Contains("valid: iteration_s"));
  CHECK_THAT(run_trainsim("sweep --merge " + fresh_dir("trainsim_sweep_nothing")).err, Catch::Contains("no sweep.manifest"));
  const std::string v = " --vary seq_len=2048";
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"sweep" + v, "give one RUN.yaml"},
      {"sweep " + kDefault + v + " --jobs 0", "--jobs must be a whole number >= 1"},
      {"sweep " + kDefault + v + " --search --top 0", "--top must be a whole number >= 1"},
      {"sweep " + kDefault + v + " --search --space tpp=2", "unknown search knob 'tpp'"},
      {"sweep --point 0", "--point needs --jobs-dir"},
      {"sweep --point 0 --jobs-dir somewhere" + v, "--point takes the sweep from the folder's manifest; drop --vary"},
      {"sweep --merge somewhere --jobs-dir somewhere", "drop --jobs-dir"},
      {"sweep --merge somewhere" + v, "drop --vary"},
      {"sweep --merge somewhere " + kDefault, "drop " + kDefault},
      {"sweep " + kDefault + v + " --emit-jobs somewhere --csv x.csv", "give it to the merge step"}};
  for (const auto& [args, message] : refused) {
    const CommandResult r = run_trainsim(args);
    INFO(args);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(message));
  }
}

TEST_CASE("a point that does not fit in memory is listed as such and not replayed", "[cli][sweep]") {
  // The default run's devices need more than 16 GiB and fit in 80: a quarter of Llama 2 7B's 6.74e9 parameters
  // (pp 2 x tp 2) is 3.1 GiB of bf16 weights, 6.3 GiB of fp32 main gradients and 4.7 GiB of ZeRO-1 optimizer
  // state (12 bytes per parameter over dp 4), plus the run's 3 GiB framework overhead: 17.1 GiB before activations.
  const std::string csv = scratch("trainsim_sweep_oom.csv");
  const CommandResult r = run_trainsim("sweep " + kDefault + " --vary platform.accelerator.memory_capacity=16GiB,80GiB --csv " + csv);
  REQUIRE(r.exit_code == 0);
  std::string table = slurp(csv);
  CHECK(csv_cell(table, 1, 2) == "out-of-memory");
  CHECK(csv_cell(table, 1, 4) == "");  // no iteration time
  CHECK(std::stod(csv_cell(table, 1, 7)) > 16);
  CHECK(std::stod(csv_cell(table, 2, 7)) == std::stod(csv_cell(table, 1, 7)));  // memory does not depend on capacity
  CHECK(csv_cell(table, 2, 2) == "replayed");
  // With --search, 8 GiB holds no strategy at all: the row says so and names the least memory one needs.
  const CommandResult s = run_trainsim("sweep " + kDefault + " --search --vary platform.accelerator.memory_capacity=8GiB --csv " + csv);
  REQUIRE(s.exit_code == 0);
  table = slurp(csv);
  CHECK(csv_cell(table, 1, 2) == "no-strategy");
  CHECK(std::stod(csv_cell(table, 1, 7)) > 8);
  CHECK_THAT(s.out, Catch::Contains("no strategy fits"));
  fs::remove(csv);
}

TEST_CASE("emitting jobs into a folder that cannot be created exits 1 naming it", "[cli][sweep]") {
  // /dev/null is a device: no folder can be made inside it.
  const CommandResult r = run_trainsim("sweep " + kDefault + " --vary seq_len=2048 --emit-jobs /dev/null/jobs");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("--emit-jobs /dev/null/jobs: cannot create the folder"));
}

TEST_CASE("a sweep plot that gnuplot cannot draw exits 1 and leaves no file", "[cli][sweep]") {
  const std::string svg = scratch("trainsim_sweep_no_gnuplot.svg");
  fs::remove(svg);
  const std::string err = scratch("trainsim_sweep_no_gnuplot.err");
  CHECK(shell("PATH=/nonexistent " + std::string(TRAINSIM_BIN) + " sweep " + kDefault +
              " --vary seq_len=2048 --plot " + svg + " >/dev/null 2>" + err) == 1);
  CHECK_THAT(slurp(err), Catch::Contains("--plot " + svg + ": gnuplot is not on PATH"));
  CHECK(!fs::exists(svg));
  fs::remove(err);
}

TEST_CASE("a sweep point's figures are simulate's for the same overrides", "[cli][sweep]") {
  const std::string csv = scratch("trainsim_sweep_points.csv");
  const CommandResult r = run_trainsim(kBandwidths + "--jobs 2 --csv " + csv);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string table = slurp(csv);
  CHECK(csv_cell(table, 0, 0) == "point");
  CHECK(csv_cell(table, 0, 1) == "platform.tiers.1.bandwidth");
  const std::string json = scratch("trainsim_sweep_point.json");
  for (int point : {0, 2}) {
    const std::string bw = csv_cell(table, point + 1, 1);
    REQUIRE(run_trainsim("simulate " + kDefault + " --set platform.tiers.1.bandwidth=" + bw + " --json " + json).exit_code == 0);
    const std::string sim = slurp(json);
    INFO(bw);
    CHECK(std::stod(csv_cell(table, point + 1, 4)) == Approx(number_after(sim, "iteration_time_s")).epsilon(1e-5));
    CHECK(std::stod(csv_cell(table, point + 1, 5)) == Approx(number_after(sim, "tokens_per_s")).epsilon(1e-5));
  }
  // A slower network can only expose more pipeline communication: time does not fall with bandwidth.
  CHECK(std::stod(csv_cell(table, 1, 4)) >= std::stod(csv_cell(table, 2, 4)));
  CHECK(std::stod(csv_cell(table, 2, 4)) >= std::stod(csv_cell(table, 3, 4)));
  fs::remove(csv);
  fs::remove(json);
}

TEST_CASE("sweep outputs are byte-identical from run to run", "[cli][sweep]") {
  const std::string a = scratch("trainsim_sweep_a"), b = scratch("trainsim_sweep_b");
  const CommandResult ra = run_trainsim(kBandwidths + "--jobs 2 --csv " + a + ".csv --markdown " + a + ".md --plot " + a + ".svg");
  const CommandResult rb = run_trainsim(kBandwidths + "--jobs 1 --csv " + b + ".csv --markdown " + b + ".md --plot " + b + ".svg");
  REQUIRE(ra.exit_code == 0);
  REQUIRE(rb.exit_code == 0);
  CHECK(ra.out == rb.out);
  for (const char* ext : {".csv", ".md", ".svg"}) {
    CHECK(!slurp(a + ext).empty());
    CHECK(slurp(a + ext) == slurp(b + ext));
    fs::remove(a + ext);
    fs::remove(b + ext);
  }
}

TEST_CASE("emitted jobs run by GNU parallel merge into the local sweep's outputs byte for byte", "[cli][sweep]") {
  REQUIRE(shell("command -v parallel >/dev/null") == 0);  // scripts/setup.sh installs GNU parallel
  const std::string local = scratch("trainsim_sweep_local"), merged = scratch("trainsim_sweep_merged");
  const std::string outputs = " --csv %.csv --markdown %.md --plot %.svg";
  auto with = [&](const std::string& base) {
    std::string s = outputs;
    for (size_t at; (at = s.find('%')) != std::string::npos;) s.replace(at, 1, base);
    return s;
  };
  const CommandResult l = run_trainsim(kBandwidths + "--jobs 2" + with(local));
  REQUIRE(l.exit_code == 0);
  const std::string dir = fresh_dir("trainsim_sweep_jobs");
  const CommandResult e = run_trainsim(kBandwidths + "--emit-jobs " + dir);
  INFO(e.err);
  REQUIRE(e.exit_code == 0);
  CHECK(slurp(dir + "/jobs.txt").find("--point 2 --jobs-dir") != std::string::npos);
  REQUIRE(shell("parallel --will-cite -j 2 < " + dir + "/jobs.txt") == 0);
  const CommandResult m = run_trainsim("sweep --merge " + dir + with(merged));
  INFO(m.err);
  REQUIRE(m.exit_code == 0);
  CHECK(m.out == l.out);
  for (const char* ext : {".csv", ".md", ".svg"}) {
    CHECK(slurp(merged + ext) == slurp(local + ext));
    fs::remove(merged + ext);
  }
  // merge.sh is the same merge.
  REQUIRE(shell(dir + "/merge.sh --csv " + merged + ".csv >/dev/null") == 0);
  CHECK(slurp(merged + ".csv") == slurp(local + ".csv"));
  // A second sweep into the same folder would mix results: refused.
  const CommandResult again = run_trainsim(kBandwidths + "--emit-jobs " + dir);
  CHECK(again.exit_code == 2);
  CHECK_THAT(again.err, Catch::Contains("already holds point results"));
  for (const char* ext : {".csv", ".md", ".svg"}) fs::remove(local + ext);
  fs::remove(merged + ".csv");
  fs::remove_all(dir);
}

TEST_CASE("the Slurm array script is valid bash and its body run per index reproduces the local sweep", "[cli][sweep]") {
  const std::string dir = fresh_dir("trainsim_sweep_slurm");
  const std::string vary = "sweep " + kDefault + " --vary platform.tiers.1.bandwidth=200Gbps,800Gbps --vary strategy.pp=1,2 "
                           "--vary strategy.dp=8,4 --zip ";
  REQUIRE(run_trainsim(vary + "--emit-jobs " + dir).exit_code == 0);
  REQUIRE(shell("bash -n " + dir + "/sweep.sbatch") == 0);
  // Without a Slurm array task id the body refuses to run.
  CHECK(shell("bash " + dir + "/sweep.sbatch 2>/dev/null") != 0);
  const CommandResult missing = run_trainsim("sweep --merge " + dir);
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("2 of 2 points have no result file yet"));
  for (int i = 0; i < 2; ++i) REQUIRE(shell("SLURM_ARRAY_TASK_ID=" + std::to_string(i) + " bash " + dir + "/sweep.sbatch") == 0);
  const std::string csv = scratch("trainsim_sweep_slurm.csv");
  const CommandResult m = run_trainsim("sweep --merge " + dir + " --csv " + csv);
  REQUIRE(m.exit_code == 0);
  const CommandResult l = run_trainsim(vary + "--jobs 2");
  REQUIRE(l.exit_code == 0);
  CHECK(m.out == l.out);
  CHECK_THAT(slurp(csv), Catch::Contains("\n1,800Gbps,2,4,replayed,tp2 pp2 dp4"));
  const CommandResult range = run_trainsim("sweep --point 2 --jobs-dir " + dir);
  CHECK(range.exit_code == 2);
  CHECK_THAT(range.err, Catch::Contains("has points 0..1"));
  fs::remove(csv);
  fs::remove_all(dir);
}

TEST_CASE("the Slurm array runs on a one-node Slurm cluster and merges into the local sweep's outputs", "[cli][sweep]") {
  // scripts/setup.sh installs Slurm; tests/cli/slurm_sweep.sh starts slurmctld and slurmd on this
  // host for the test (auth/none, state in the scratch folder) and stops them when it ends.
  REQUIRE(shell("command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null") == 0);
  const std::string work = fresh_dir("trainsim_sweep_slurm_cluster");
  const std::string vary = "--vary platform.tiers.1.bandwidth=100Gbps,400Gbps,1600Gbps";
  REQUIRE(shell("bash " + (kRoot / "tests/cli/slurm_sweep.sh").string() + " " + TRAINSIM_BIN + " " + kDefault + " " + work +
                " " + vary + " >/dev/null") == 0);
  const std::string csv = scratch("trainsim_sweep_slurm_local.csv");
  const CommandResult l = run_trainsim(kBandwidths + "--csv " + csv);
  REQUIRE(l.exit_code == 0);
  CHECK(slurp(work + "/merged.out") == l.out);
  CHECK(slurp(work + "/merged.csv") == slurp(csv));
  CHECK(fs::exists(work + "/jobs/slurm-1_2.out"));  // Slurm ran task 2 of job 1
  fs::remove(csv);
  fs::remove_all(work);
}

TEST_CASE("a sweep with --search keeps the fastest replayed strategy of the search's top at each point", "[cli][sweep]") {
  const std::string space = "--space micro_batch=1,2 --space schedule=1f1b,zb-h1 --top 3";
  const std::string csv = scratch("trainsim_sweep_search.csv");
  const CommandResult r = run_trainsim("sweep " + kDefault + " --search " + space +
                                       " --vary platform.tiers.1.bandwidth=400Gbps,100Gbps --jobs 2 --csv " + csv);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("winners (which strategy is fastest where):") && Catch::Contains("wins at"));
  // At the run's own bandwidth, `search` with the run as baseline ranks the same top 3 and replays them.
  const CommandResult s = run_trainsim(
      "search --model llama2-7b --platform dgx-h100-superpod --devices 16 --global-batch 32 --seq 4096 " + space +
      " --baseline " + kDefault + " --json");
  REQUIRE(s.exit_code == 0);
  const size_t ranked = s.out.find("\"ranked\"");
  const double best = number_after(s.out, "replay_s", ranked);
  const std::string table = slurp(csv);
  CHECK(csv_cell(table, 1, 2) == "replayed");
  CHECK(std::stod(csv_cell(table, 1, 4)) == Approx(best).epsilon(1e-5));
  const size_t label = s.out.find("\"strategy\": \"", ranked) + 13;
  CHECK(csv_cell(table, 1, 3) == s.out.substr(label, s.out.find('"', label) - label));
  fs::remove(csv);
}

TEST_CASE("with --search a sweep over devices alone needs no strategy that fits each point", "[cli][sweep]") {
  // The default run is tp 2 x pp 2 x dp 4 = 16 devices. At 8 and 32 devices that product is wrong,
  // which matters only when the run's own strategy is replayed: without --search the sweep refuses
  // the point; with it every point is re-planned (before, devices had to be zipped with strategy.dp).
  const std::string v = " --vary devices=8,32";
  const CommandResult plain = run_trainsim("sweep " + kDefault + v);
  CHECK(plain.exit_code == 2);
  CHECK_THAT(plain.err, Catch::Contains("point 0 (devices=8)") && Catch::Contains("does not equal devices"));
  const std::string csv = scratch("trainsim_sweep_devices.csv");
  const CommandResult r = run_trainsim("sweep " + kDefault + v +
                                       " --search --space micro_batch=1 --space schedule=1f1b --top 1 --csv " + csv);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string table = slurp(csv);
  CHECK(csv_cell(table, 1, 2) == "replayed");
  CHECK(csv_cell(table, 2, 2) == "replayed");
  // The same global batch on four times the devices: each point's own plan is faster at 32.
  CHECK(std::stod(csv_cell(table, 2, 4)) < std::stod(csv_cell(table, 1, 4)));
  // A strategy key under --search would be replaced by the plan: refused, naming the search's option.
  const CommandResult varied = run_trainsim("sweep " + kDefault + " --search --vary strategy.tp=2,4");
  CHECK(varied.exit_code == 2);
  CHECK_THAT(varied.err, Catch::Contains("--vary strategy.tp would be ignored") && Catch::Contains("--space tp=..."));
  const CommandResult fixed = run_trainsim("sweep " + kDefault + " --search" + v + " --set strategy.zero_stage=1");
  CHECK(fixed.exit_code == 2);
  CHECK_THAT(fixed.err, Catch::Contains("--fix zero_stage=..."));
  // The platform's own rules still hold: 12 devices are a node and a half.
  const CommandResult partial = run_trainsim("sweep " + kDefault + " --search --vary devices=12");
  CHECK(partial.exit_code == 2);
  CHECK_THAT(partial.err, Catch::Contains("point 0 (devices=12)") && Catch::Contains("whole number of nodes"));
  fs::remove(csv);
}
