// Chrome trace-event JSON (opens in Perfetto / chrome://tracing): one process per device, one
// thread (track) per stream; times in microseconds as the format requires.
#pragma once
#include <ostream>

#include "sim/replay/timeline.hpp"

namespace trainsim {

void write_chrome_trace(std::ostream& out, const Timeline& timeline);

}  // namespace trainsim
