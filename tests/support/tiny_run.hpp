// Tiny runs built in code for replay golden tests: one or two tiers with round numbers, so the
// expected time of every case can be worked out by hand.
#pragma once
#include <string>

#include "sim/config/run_spec.hpp"
#include "sim/graph/stage_graph.hpp"

namespace trainsim::test {

// An accelerator with no kernel overhead; comm_interference as given.
inline AcceleratorSpec tiny_accelerator(double interference = 0) {
  AcceleratorSpec a;
  a.name = "toy";
  a.peak_flops[Precision::kBf16] = 1e15;
  a.memory_capacity = 80e9;
  a.memory_bandwidth = 1e12;
  a.comm_interference = interference;
  return a;
}

// One NVSwitch-style island of `devices` devices: every device one port of `bandwidth` per
// direction, end-to-end latency `latency`.
inline RunSpec island_run(int devices, double bandwidth, double latency, double interference = 0) {
  RunSpec run;
  run.name = "tiny";
  run.source_file = "tests/tiny";
  run.devices = devices;
  run.platform.name = "island";
  run.platform.accelerator = tiny_accelerator(interference);
  TierSpec t;
  t.name = "island";
  t.topology = Topology::kNvswitch;
  t.domain_size = devices;
  t.bandwidth = bandwidth;
  t.latency = latency;
  run.platform.tiers.push_back(t);
  return run;
}

inline Task compute(StageGraph& g, double seconds, const std::string& name = "kernel") {
  Task t;
  t.kind = TaskKind::kCompute;
  t.stream = Stream::kCompute;
  t.duration = seconds;
  t.label = g.label(name);
  return t;
}

inline Task collective(StageGraph& g, CollectiveKind kind, Dim dim, double bytes) {
  Task t;
  t.kind = TaskKind::kCollective;
  t.stream = dim == Dim::kTp ? Stream::kTp : Stream::kDp;
  t.collective = kind;
  t.group = dim;
  t.bytes = bytes;
  t.label = g.label("collective");
  return t;
}

inline Task p2p(StageGraph& g, TaskKind kind, int offset, double bytes) {
  Task t;
  t.kind = kind;
  t.stream = kind == TaskKind::kSend ? Stream::kPpSend : Stream::kPpRecv;
  t.peer_offset = static_cast<int8_t>(offset);
  t.bytes = bytes;
  t.label = g.label(kind == TaskKind::kSend ? "send" : "recv");
  return t;
}

}  // namespace trainsim::test
