#include "sim/report/trace_writer.hpp"

#include <cmath>
#include <cstdio>
#include <set>

#include "sim/report/json_writer.hpp"
#include "sim/report/trace_layers.hpp"

namespace trainsim {
namespace {

void write_names(JsonWriter& w, const std::vector<TraceEvent>& events) {
  std::set<std::pair<int, int>> tracks;
  for (const auto& e : events) tracks.insert({e.rank, static_cast<int>(e.stream)});
  std::set<int> ranks;
  for (const auto& t : tracks) ranks.insert(t.first);
  for (int rank : ranks) {
    w.begin_object().field("ph", "M").field("name", "process_name").field("pid", rank).key("args").begin_object();
    w.field("name", "device " + std::to_string(rank)).end_object().end_object();
  }
  for (const auto& t : tracks) {
    w.begin_object().field("ph", "M").field("name", "thread_name").field("pid", t.first).field("tid", t.second);
    w.key("args").begin_object().field("name", to_string(static_cast<Stream>(t.second))).end_object().end_object();
  }
}

// Whole nanoseconds as microseconds with three decimals: "1234.567".
std::string microseconds(long long ns) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", ns / 1000, ns % 1000);
  return buf;
}

}  // namespace

long long trace_nanoseconds(double seconds) { return std::llround(seconds * 1e9); }

void write_chrome_trace(std::ostream& out, const Timeline& timeline, TraceGranularity granularity) {
  std::vector<int> tasks;
  const std::vector<TraceEvent> slices = trace_slices(timeline.trace, granularity == TraceGranularity::kLayer, &tasks);
  JsonWriter w(out, false);
  w.begin_object().field("displayTimeUnit", "ms").key("traceEvents").begin_array();
  write_names(w, slices);
  for (size_t i = 0; i < slices.size(); ++i) {
    const TraceEvent& e = slices[i];
    const long long start = trace_nanoseconds(e.start);
    const long long end = std::max(start, trace_nanoseconds(e.end));
    w.begin_object().field("ph", "X").field("name", e.name).field("pid", e.rank);
    w.field("tid", static_cast<int>(e.stream)).key("ts").raw(microseconds(start)).key("dur").raw(microseconds(end - start));
    w.key("args").begin_object().field("microbatch", e.microbatch).field("layer", e.layer);
    if (granularity == TraceGranularity::kLayer) w.field("tasks", tasks[i]);
    w.end_object().end_object();
  }
  w.end_array().end_object();
  out << '\n';
}

}  // namespace trainsim
