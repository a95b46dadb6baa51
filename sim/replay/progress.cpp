#include "sim/replay/progress.hpp"

#include <cstdio>

namespace trainsim {
namespace {

constexpr uint64_t kTasksBetweenChecks = 4096;  // a clock read per 4096 tasks costs nothing measurable
constexpr double kSecondsBetweenReports = 1.0;

}  // namespace

void ProgressMeter::start(bool enabled, uint64_t total_tasks) {
  enabled_ = enabled;
  total_ = total_tasks;
  next_check_ = kTasksBetweenChecks;
  start_ = last_ = std::chrono::steady_clock::now();
}

void ProgressMeter::report(uint64_t tasks_done, double simulated_seconds, bool last) {
  next_check_ = tasks_done + kTasksBetweenChecks;
  const auto now = std::chrono::steady_clock::now();
  if (!last && std::chrono::duration<double>(now - last_).count() < kSecondsBetweenReports) return;
  last_ = now;
  const double wall = std::chrono::duration<double>(now - start_).count();
  const double percent = total_ > 0 ? 100.0 * static_cast<double>(tasks_done) / static_cast<double>(total_) : 0;
  std::fprintf(stderr, "replay: simulated %.4f s, %llu of %llu tasks (%.1f%%), %.1f s wall\n", simulated_seconds,
               static_cast<unsigned long long>(tasks_done), static_cast<unsigned long long>(total_), percent, wall);
}

void ProgressMeter::finish(uint64_t tasks_done, double simulated_seconds) {
  if (enabled_) report(tasks_done, simulated_seconds, true);
}

}  // namespace trainsim
