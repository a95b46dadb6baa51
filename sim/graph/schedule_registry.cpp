// The schedule registry. Each schedule lives in sim/graph/schedules/<name>.cpp and defines a
// factory `ScheduleInfo <id>_schedule()`; registering it is one line in TRAINSIM_SCHEDULES.
// (An explicit list rather than self-registering static objects: the library is a static
// archive, and the linker would drop object files nothing refers to.)
#include <algorithm>
#include <string>

#include "sim/core/error.hpp"
#include "sim/graph/schedule.hpp"

#define TRAINSIM_SCHEDULES(X) \
  X(gpipe)                    \
  X(one_f_one_b)              \
  X(interleaved)              \
  X(zb_h1)

namespace trainsim {

#define TRAINSIM_DECLARE_SCHEDULE(id) ScheduleInfo id##_schedule();
TRAINSIM_SCHEDULES(TRAINSIM_DECLARE_SCHEDULE)
#undef TRAINSIM_DECLARE_SCHEDULE

const std::vector<ScheduleInfo>& schedules() {
  static const std::vector<ScheduleInfo> all = [] {
#define TRAINSIM_LIST_SCHEDULE(id) id##_schedule(),
    std::vector<ScheduleInfo> list = {TRAINSIM_SCHEDULES(TRAINSIM_LIST_SCHEDULE)};
#undef TRAINSIM_LIST_SCHEDULE
    std::sort(list.begin(), list.end(),
              [](const ScheduleInfo& a, const ScheduleInfo& b) { return a.name < b.name; });
    return list;
  }();
  return all;
}

const ScheduleInfo& find_schedule(const std::string& name) {
  std::string names;
  for (const ScheduleInfo& s : schedules()) {
    if (s.name == name) return s;
    names += (names.empty() ? "" : ", ") + s.name;
  }
  throw UserError("unknown pipeline schedule '" + name + "'; valid: " + names);
}

}  // namespace trainsim
