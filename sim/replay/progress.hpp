// Progress of a long replay on stderr: simulated time reached, tasks done (of the total) and
// wall time, at most once a second. Off unless ReplayOptions::progress; `trainsim simulate`
// turns it on when stderr is a terminal or --progress is given.
#pragma once
#include <chrono>
#include <cstdint>

namespace trainsim {

class ProgressMeter {
 public:
  ProgressMeter() = default;
  // total_tasks: tasks the replay will run (for the percentage).
  void start(bool enabled, uint64_t total_tasks);
  // Called after tasks finish; cheap unless a second has passed since the last report.
  void update(uint64_t tasks_done, double simulated_seconds) {
    if (enabled_ && tasks_done >= next_check_) report(tasks_done, simulated_seconds, false);
  }
  // The last line, once the replay is over.
  void finish(uint64_t tasks_done, double simulated_seconds);

 private:
  void report(uint64_t tasks_done, double simulated_seconds, bool last);
  bool enabled_ = false;
  uint64_t total_ = 0;
  uint64_t next_check_ = 0;  // look at the clock again after this many tasks
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace trainsim
