#include "sim/report/trace_writer.hpp"

#include <set>

#include "sim/report/json_writer.hpp"

namespace trainsim {
namespace {

void write_names(JsonWriter& w, const Timeline& timeline) {
  std::set<std::pair<int, int>> tracks;
  for (const auto& e : timeline.trace) tracks.insert({e.rank, static_cast<int>(e.stream)});
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

}  // namespace

void write_chrome_trace(std::ostream& out, const Timeline& timeline) {
  JsonWriter w(out, false);
  w.begin_object().field("displayTimeUnit", "ms").key("traceEvents").begin_array();
  write_names(w, timeline);
  for (const auto& e : timeline.trace) {
    w.begin_object().field("ph", "X").field("name", e.name).field("pid", e.rank);
    w.field("tid", static_cast<int>(e.stream)).field("ts", e.start * 1e6).field("dur", (e.end - e.start) * 1e6);
    w.key("args").begin_object().field("microbatch", e.microbatch).field("layer", e.layer).end_object();
    w.end_object();
  }
  w.end_array().end_object();
  out << '\n';
}

}  // namespace trainsim
