// `trainsim simulate` end to end: results, JSON and trace files a program can read.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "tests/support/json_check.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {
}  // namespace

TEST_CASE("simulate writes valid JSON with the documented fields and a valid Chrome trace", "[cli]") {
  const std::string json = scratch("trainsim_cli_result.json"), trace = scratch("trainsim_cli_trace.json");
  const CommandResult r = run_trainsim("simulate " + kDefault + " --json " + json + " --trace " + trace +
                                   " --trace-devices 0-3 --links " + scratch("trainsim_cli_links.csv"));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string result = slurp(json);
  CHECK(JsonCheck::valid(result));
  for (const char* field : {"\"iteration_time_s\"", "\"tokens_per_s\"", "\"tflops_per_device\"", "\"mfu\"",
                            "\"peak_memory_bytes\"", "\"memory_capacity_bytes\"", "\"breakdown\"", "\"devices\""})
    CHECK(result.find(field) != std::string::npos);
  const std::string events = slurp(trace);
  CHECK(JsonCheck::valid(events));
  CHECK(events.find("\"traceEvents\"") != std::string::npos);
  CHECK(events.find("qkv") != std::string::npos);  // kernels are named
  CHECK(slurp(scratch("trainsim_cli_links.csv")).rfind("link,tier,configured_Bps,effective_Bps,bytes,utilisation\n", 0) == 0);
}

TEST_CASE("the JSON checker used above rejects malformed JSON", "[cli]") {
  CHECK(JsonCheck::valid("{\"a\": [1, 2.5e3, true, null, \"x\"]}"));
  CHECK_FALSE(JsonCheck::valid("{\"a\": [1, 2,]}"));
  CHECK_FALSE(JsonCheck::valid("{a: 1}"));
  CHECK_FALSE(JsonCheck::valid("{\"a\": 1} trailing"));
}

TEST_CASE("the same run gives byte-identical JSON twice", "[cli]") {
  REQUIRE(run_trainsim("simulate " + kDefault + " --json " + scratch("trainsim_det1.json")).exit_code == 0);
  REQUIRE(run_trainsim("simulate " + kDefault + " --json " + scratch("trainsim_det2.json")).exit_code == 0);
  CHECK(slurp(scratch("trainsim_det1.json")) == slurp(scratch("trainsim_det2.json")));
}

TEST_CASE("a what-if override changes the result in the expected direction", "[cli]") {
  // Halving every accelerator's peak FLOP/s must make the iteration slower.
  REQUIRE(run_trainsim("simulate " + kDefault + " --json " + scratch("trainsim_wi1.json")).exit_code == 0);
  REQUIRE(run_trainsim("simulate " + kDefault + " --json " + scratch("trainsim_wi2.json") + " --set platform.accelerator.peak_flops.bf16=494TFLOPS")
              .exit_code == 0);
  auto time_of = [](const std::string& text) {
    const size_t at = text.find("\"iteration_time_s\": ");
    return std::stod(text.substr(at + 20));
  };
  CHECK(time_of(slurp(scratch("trainsim_wi2.json"))) > 1.3 * time_of(slurp(scratch("trainsim_wi1.json"))));
}

TEST_CASE("simulate reports progress on stderr only when asked, ending with every task done", "[cli]") {
  // stderr is a file here, not a terminal: silent by default. With --progress the last line
  // counts the tasks the replay ran (tasks finished) against the tasks its graphs hold (graph
  // sizes), and both must equal the task count of the summary.
  const CommandResult quiet = run_trainsim("simulate " + kDefault);
  REQUIRE(quiet.exit_code == 0);
  // No progress line (stderr itself may hold AddressSanitizer's own warning about SimGrid's
  // context switching in the sanitizer build, which is not trainsim output).
  CHECK(quiet.err.find("replay:") == std::string::npos);
  const CommandResult loud = run_trainsim("simulate " + kDefault + " --fold off --progress");
  REQUIRE(loud.exit_code == 0);
  const size_t at = loud.out.find(" tasks, ");
  REQUIRE(at != std::string::npos);
  const std::string tasks = loud.out.substr(loud.out.rfind(' ', at - 1) + 1, at - loud.out.rfind(' ', at - 1) - 1);
  CHECK_THAT(loud.err, Catch::Contains(tasks + " of " + tasks + " tasks (100.0%)"));
}

namespace {
// Per track (pid, tid): slices as integer nanoseconds [ts, ts + dur), in file order.
std::map<std::pair<int, int>, std::vector<std::pair<long long, long long>>> tracks_of(const std::string& json) {
  const std::regex x("\"pid\":(\\d+),\"tid\":(\\d+),\"ts\":(\\d+)\\.(\\d{3}),\"dur\":(\\d+)\\.(\\d{3})");
  std::map<std::pair<int, int>, std::vector<std::pair<long long, long long>>> out;
  for (std::sregex_iterator it(json.begin(), json.end(), x), end; it != end; ++it) {
    const auto& m = *it;
    const long long ts = std::stoll(m[3]) * 1000 + std::stoll(m[4]);
    out[{std::stoi(m[1]), std::stoi(m[2])}].push_back({ts, ts + std::stoll(m[5]) * 1000 + std::stoll(m[6])});
  }
  return out;
}
}  // namespace

TEST_CASE("simulate --trace-devices picks ranks, layer granularity shrinks the trace, and no slice overlaps the next", "[cli]") {
  const std::string kernel = scratch("trainsim_trace_kernel.json"), layer = scratch("trainsim_trace_layer.json");
  const std::string common = "simulate " + kDefault + " --trace-devices 0,8-9 --trace ";
  REQUIRE(run_trainsim(common + kernel).exit_code == 0);
  const CommandResult r = run_trainsim(common + layer + " --trace-granularity layer");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto k = tracks_of(slurp(kernel)), l = tracks_of(slurp(layer));
  std::set<int> pids;
  size_t kernel_slices = 0, layer_slices = 0;
  for (const auto& [track, s] : k) pids.insert(track.first), kernel_slices += s.size();
  for (const auto& [track, s] : l) layer_slices += s.size();
  CHECK(pids == std::set<int>{0, 8, 9});
  // The default run's 16 layers per stage each run about ten kernels per pass: a layer-granularity
  // trace has several times fewer slices.
  CHECK(layer_slices * 4 < kernel_slices);
  for (const auto* trace : {&k, &l})
    for (const auto& [track, s] : *trace)
      for (size_t i = 0; i + 1 < s.size(); ++i) {
        INFO("pid " << track.first << " tid " << track.second << " slice " << i);
        CHECK(s[i].second <= s[i + 1].first);
      }
  CHECK(slurp(layer).find("\"name\":\"layer 0 fwd\"") != std::string::npos);
  const CommandResult bad = run_trainsim("simulate " + kDefault + " --trace " + layer + " --trace-granularity tensor");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("valid: kernel, layer") != std::string::npos);
  for (const char* ranks : {"0,8x", "3-1", "16", "a-b", ""}) {
    INFO(ranks);
    const CommandResult r2 = run_trainsim("simulate " + kDefault + " --trace " + layer + " --trace-devices '" + ranks + "'");
    CHECK(r2.exit_code == 2);
    CHECK(r2.err.find("--trace-devices") != std::string::npos);
  }
}

TEST_CASE("simulate --links lists only links that carried bytes, with configured and effective bandwidth", "[cli]") {
  const std::string csv = scratch("trainsim_links_only.csv");
  REQUIRE(run_trainsim("simulate " + kDefault + " --links " + csv).exit_code == 0);
  std::istringstream in(slurp(csv));
  std::string line;
  std::getline(in, line);
  CHECK(line == "link,tier,configured_Bps,effective_Bps,bytes,utilisation");
  int rows = 0, nvlink = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream cells(line);
    for (std::string c; std::getline(cells, c, ',');) f.push_back(c);
    REQUIRE(f.size() == 6);
    ++rows;
    CHECK(std::stod(f[4]) > 0);  // links that carried nothing are left out
    CHECK(std::stod(f[5]) <= 1.0);
    if (f[1].rfind("nvlink.", 0) == 0) {
      // dgx-h100-superpod: NVLink 450 GB/s at efficiency 0.80 -> 360 GB/s effective.
      ++nvlink;
      CHECK(std::stod(f[2]) == Approx(450e9));
      CHECK(std::stod(f[3]) == Approx(360e9));
    }
  }
  CHECK(rows > 0);
  CHECK(nvlink > 0);
}

#if !defined(__SANITIZE_ADDRESS__)
namespace {
// Examples whose unfolded replay takes minutes on a 2-core machine (deepseek-v3-cloudmatrix: 768
// devices, 64-way all-to-alls, about 5 million tasks, ~9 min). They run under the [heavy] tag, which
// CTest labels `heavy`: scripts/test.sh --full runs them, CI leaves them out to stay under 20 min.
const std::vector<std::string> kHeavyExamples = {"deepseek-v3-cloudmatrix"};

bool heavy(const fs::path& p) {
  return std::find(kHeavyExamples.begin(), kHeavyExamples.end(), p.stem().string()) != kHeavyExamples.end();
}

// The longest of the light examples (about 39 s on a 2-core machine, 2026-11-28; the next are 26 s and
// 18 s), run in a test of its own so that CTest spreads the examples over its jobs.
const std::string kLongestLightExample = "llama3-405b-gb300-mxfp8";

void check_simulates(const fs::path& run) {
  INFO(run);
  const CommandResult r = run_trainsim("simulate " + run.string());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("iteration time") != std::string::npos);
}

// The light examples in name order; `part` 0 or 1 takes every other one, so that CTest runs the
// two halves side by side.
void check_examples(int part) {
  std::vector<fs::path> runs;
  for (const auto& entry : fs::directory_iterator(kRoot / "workloads"))
    if (entry.path().extension() == ".yaml" && !heavy(entry.path()) && entry.path().stem() != kLongestLightExample)
      runs.push_back(entry.path());
  std::sort(runs.begin(), runs.end());
  CHECK(runs.size() >= 10);
  for (size_t i = static_cast<size_t>(part); i < runs.size(); i += 2) check_simulates(runs[i]);
}
}  // namespace

TEST_CASE("simulate runs every example run in workloads/ (even places in name order)", "[cli][slow]") {
  check_examples(0);
}

TEST_CASE("simulate runs every example run in workloads/ (odd places in name order)", "[cli][slow]") {
  check_examples(1);
}

TEST_CASE("simulate runs the longest light example run in workloads/ on its own", "[cli][slow]") {
  const fs::path run = kRoot / "workloads" / (kLongestLightExample + ".yaml");
  REQUIRE(fs::exists(run));
  check_simulates(run);
}

TEST_CASE("simulate runs the heavy example runs in workloads/", "[cli][slow][heavy]") {
  for (const auto& name : kHeavyExamples) {
    const fs::path run = kRoot / "workloads" / (name + ".yaml");
    REQUIRE(fs::exists(run));
    check_simulates(run);
  }
}
#endif

TEST_CASE("a trace of a folded replay says which asked-for devices it cannot show", "[cli]") {
  // default.yaml: 16 devices, tp 2 x dp 4 x pp 2. Folding dp and tp replays one device per stage
  // (2 of 16), so 14 of the ranks 0-15 are mirrors with no trace of their own.
  const std::string trace = scratch("cli_simulate_folded_trace.json");
  const CommandResult all = run_trainsim("simulate " + kDefault + " --fold on --trace " + trace + " --trace-devices 0-15");
  CHECK(all.exit_code == 0);
  CHECK(all.err.find("warning: --trace: 14 of the 16 devices asked for were folded away") != std::string::npos);
  const CommandResult first = run_trainsim("simulate " + kDefault + " --fold on --trace " + trace + " --trace-devices 0");
  CHECK(first.exit_code == 0);
  CHECK(first.err.find("folded away") == std::string::npos);  // rank 0 is replayed
  std::remove(trace.c_str());
}
