#include "sim/report/trace_layers.hpp"

#include <algorithm>
#include <tuple>

namespace trainsim {
namespace {

bool same_layer(const TraceEvent& a, const TraceEvent& b) {
  return a.rank == b.rank && a.stream == b.stream && a.layer >= 0 && a.layer == b.layer && a.microbatch == b.microbatch;
}

// What a merged slice did, from the passes of its events.
std::string slice_kind(bool forward, bool backward, Stream stream) {
  if (forward && backward) return "fwd+bwd";
  if (forward) return "fwd";
  if (backward) return "bwd";
  return to_string(stream);
}

}  // namespace

std::string pass_of(const std::string& label) {
  const size_t dot = label.rfind('.');
  const std::string last = dot == std::string::npos ? label : label.substr(dot + 1);
  if (last == "fwd") return "fwd";
  if (last == "bwd" || last == "dgrad" || last == "wgrad") return "bwd";
  return "";
}

std::vector<TraceEvent> trace_slices(const std::vector<TraceEvent>& events, bool by_layer, std::vector<int>* tasks) {
  std::vector<TraceEvent> sorted = events;
  std::stable_sort(sorted.begin(), sorted.end(), [](const TraceEvent& a, const TraceEvent& b) {
    return std::make_tuple(a.rank, static_cast<int>(a.stream), a.start, a.end) <
           std::make_tuple(b.rank, static_cast<int>(b.stream), b.start, b.end);
  });
  std::vector<TraceEvent> out;
  std::vector<std::pair<bool, bool>> passes;  // per slice: has forward, has backward events
  tasks->clear();
  for (const TraceEvent& e : sorted) {
    const std::string pass = pass_of(e.name);
    if (!by_layer || out.empty() || !same_layer(out.back(), e)) {
      out.push_back(e);
      tasks->push_back(0);
      passes.emplace_back(false, false);
    }
    out.back().end = std::max(out.back().end, e.end);
    ++tasks->back();
    passes.back().first |= pass == "fwd";
    passes.back().second |= pass == "bwd";
  }
  if (by_layer)
    for (size_t i = 0; i < out.size(); ++i)
      if (out[i].layer >= 0)
        out[i].name = "layer " + std::to_string(out[i].layer) + " " +
                      slice_kind(passes[i].first, passes[i].second, out[i].stream);
  return out;
}

}  // namespace trainsim
