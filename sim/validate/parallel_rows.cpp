#include "sim/validate/parallel_rows.hpp"

#include <chrono>
#include <exception>
#include <future>
#include <vector>

namespace trainsim {
namespace {

void run_in_order(int count, const std::function<void(int)>& work, const std::function<void(int)>& on_start,
                  const std::function<void(int)>& on_done) {
  for (int i = 0; i < count; ++i) {
    on_start(i);
    work(i);
    on_done(i);
  }
}

}  // namespace

void for_each_in_parallel(int count, int jobs, const std::function<void(int)>& work,
                          const std::function<void(int)>& on_start, const std::function<void(int)>& on_done) {
  if (jobs <= 1) return run_in_order(count, work, on_start, on_done);
  std::vector<std::pair<int, std::future<void>>> running;
  std::exception_ptr failure;
  int next = 0;
  while (running.size() > 0 || (next < count && !failure)) {
    while (!failure && next < count && static_cast<int>(running.size()) < jobs) {
      on_start(next);
      running.emplace_back(next, std::async(std::launch::async, work, next));
      ++next;
    }
    for (size_t k = 0; k < running.size(); ++k) {
      if (running[k].second.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) continue;
      const int index = running[k].first;
      try {
        running[k].second.get();
        on_done(index);
      } catch (...) {
        if (!failure) failure = std::current_exception();
      }
      running.erase(running.begin() + static_cast<long>(k));
      break;
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace trainsim
