// Chrome trace-event JSON (opens in Perfetto / chrome://tracing): one process per device, one
// thread (track) per stream; times in microseconds as the format requires. Every start and end is
// rounded once to a whole nanosecond and printed exactly (microseconds with three decimals), so a
// slice never overlaps the one after it on its track: the replay's tasks of one stream run one after
// another, and rounding both ends the same way keeps that order.
#pragma once
#include <ostream>

#include "sim/replay/timeline.hpp"

namespace trainsim {

enum class TraceGranularity { kKernel, kLayer };

void write_chrome_trace(std::ostream& out, const Timeline& timeline, TraceGranularity granularity);

// A time in seconds as whole nanoseconds (round half away from zero).
[[nodiscard]] long long trace_nanoseconds(double seconds);

}  // namespace trainsim
