// The Chrome trace's slices (integer nanoseconds, layer granularity) and the links CSV.
#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <sstream>

#include "sim/report/links_csv.hpp"
#include "sim/report/trace_layers.hpp"
#include "sim/report/trace_writer.hpp"
#include "tests/support/json_check.hpp"

using namespace trainsim;

namespace {

TraceEvent event(int rank, const std::string& name, int layer, int mb, double start, double end) {
  return TraceEvent{rank, Stream::kCompute, name, mb, layer, start, end};
}

// (pid, ts in ns, dur in ns) of every "X" slice, read back from the text as integers.
struct Slice {
  int pid;
  long long ts, dur;
};
std::vector<Slice> slices_of(const std::string& json) {
  const std::regex x("\"pid\":(\\d+),\"tid\":\\d+,\"ts\":(\\d+)\\.(\\d{3}),\"dur\":(\\d+)\\.(\\d{3})");
  std::vector<Slice> out;
  for (std::sregex_iterator it(json.begin(), json.end(), x), end; it != end; ++it) {
    const auto& m = *it;
    out.push_back({std::stoi(m[1]), std::stoll(m[2]) * 1000 + std::stoll(m[3]), std::stoll(m[4]) * 1000 + std::stoll(m[5])});
  }
  return out;
}

}  // namespace

TEST_CASE("trace slices are whole nanoseconds and never overlap their successor", "[report]") {
  // Back-to-back kernels whose shared boundaries fall between nanoseconds: 1.0000000014 s rounds
  // to 1,000,000,001 ns for the first slice's end and for the second's start alike, so
  // ts + dur of each slice equals the next ts. Printing ts and dur each from its own rounding of
  // a double in microseconds (as before) can leave ts + dur 1 ns past the next ts.
  Timeline t;
  const double b[] = {1.0, 1.0000000014, 1.0000000026, 1.0000000036, 2.5};
  for (int i = 0; i < 4; ++i) t.trace.push_back(event(0, "k" + std::to_string(i) + ".fwd", -1, 0, b[i], b[i + 1]));
  std::ostringstream out;
  write_chrome_trace(out, t, TraceGranularity::kKernel);
  CHECK(test::JsonCheck::valid(out.str()));
  const std::vector<Slice> s = slices_of(out.str());
  REQUIRE(s.size() == 4);
  CHECK(s[0].ts == 1000000000);
  CHECK(s[0].dur == 1);  // 1,000,000,001 - 1,000,000,000
  CHECK(s[1].ts == 1000000001);
  CHECK(s[1].dur == 2);  // 1,000,000,003 (2.6 rounds up) - 1,000,000,001
  CHECK(s[2].ts == 1000000003);
  CHECK(s[2].dur == 1);
  CHECK(s[3].ts == 1000000004);  // 3.6 rounds up
  CHECK(s[3].dur == 1499999996);
  for (size_t i = 0; i + 1 < s.size(); ++i) CHECK(s[i].ts + s[i].dur == s[i + 1].ts);
  CHECK(trace_nanoseconds(0.0000000026) == 3);
  CHECK(trace_nanoseconds(0.0000000024) == 2);
}

TEST_CASE("layer granularity merges a layer's consecutive tasks on one track, and nothing else", "[report]") {
  // Device 0's compute stream: layer 3 forward (two kernels), layer 4 forward, then layer 3's
  // backward of the same micro-batch with a recomputed forward kernel inside it, then the
  // optimizer (no layer). Its TP stream: two collectives of layer 3. Device 1: layer 3 forward of
  // micro-batch 1.
  std::vector<TraceEvent> e = {
      event(0, "qkv_proj.fwd", 3, 0, 0.0, 1.0),       event(0, "attention.fwd", 3, 0, 1.0, 2.0),
      event(0, "qkv_proj.fwd", 4, 0, 2.0, 3.0),       event(0, "mlp_fc2.dgrad", 3, 0, 3.0, 3.5),
      event(0, "core_attention.fwd", 3, 0, 3.5, 3.7), event(0, "core_attention.dgrad", 3, 0, 3.7, 4.0),
      event(1, "qkv_proj.fwd", 3, 1, 0.5, 1.5),       event(0, "optimizer.step", -1, -1, 4.0, 5.0)};
  TraceEvent tp = event(0, "tp.all_gather", 3, 0, 0.0, 0.2);
  tp.stream = Stream::kTp;
  e.push_back(tp);
  tp.name = "tp.reduce_scatter";
  tp.start = 0.9, tp.end = 1.1;
  e.push_back(tp);
  std::vector<int> tasks;
  const std::vector<TraceEvent> merged = trace_slices(e, true, &tasks);
  REQUIRE(merged.size() == 6);
  CHECK(merged[0].name == "layer 3 fwd");
  CHECK(merged[0].start == 0.0);
  CHECK(merged[0].end == 2.0);
  CHECK(merged[1].name == "layer 4 fwd");
  CHECK(merged[2].name == "layer 3 fwd+bwd");  // backward with its recomputed kernel
  CHECK(merged[2].end == 4.0);
  CHECK(merged[3].name == "optimizer.step");   // device 0's compute stream, not tied to a layer
  CHECK(merged[4].name == "layer 3 tp");       // device 0's TP stream
  CHECK(merged[4].end == 1.1);
  CHECK(merged[5].rank == 1);
  CHECK(tasks == std::vector<int>{2, 1, 3, 1, 2, 1});
  const std::vector<TraceEvent> kernels = trace_slices(e, false, &tasks);
  CHECK(kernels.size() == e.size());  // kernel granularity: one slice per event, sorted by track
  CHECK(kernels.back().rank == 1);
}

TEST_CASE("the links CSV gives configured and effective bandwidth and leaves out idle links", "[report]") {
  // A tier at efficiency 0.8: its link ran at 360 GB/s effective of 450 configured. It carried
  // 36 GB in a 1 s iteration: utilisation 36e9 / (360e9 x 1) = 0.1. The idle link is left out.
  RunSpec run;
  TierSpec nvlink;
  nvlink.name = "nvlink";
  nvlink.efficiency = 0.8;
  run.platform.tiers = {nvlink};
  Timeline t;
  t.iteration_time = 1.0;
  t.links = {LinkStat{"nvlink_port1_UP", "nvlink.port", 360e9, 0, 0}, LinkStat{"nvlink_port0_UP", "nvlink.port", 360e9, 36e9, 0.1},
             LinkStat{"loopback", "loopback", 1e12, 1e9, 0.001}};
  std::ostringstream out;
  write_links_csv(out, run, t);
  CHECK(out.str() ==
        "link,tier,configured_Bps,effective_Bps,bytes,utilisation\n"
        "nvlink_port0_UP,nvlink.port,4.5e+11,3.6e+11,3.6e+10,0.100000\n"
        "loopback,loopback,1e+12,1e+12,1000000000,0.001000\n");
}
