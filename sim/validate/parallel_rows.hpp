// Runs `work(i)` for i in [0, count) with up to `jobs` at a time. `on_start(i)` and `on_done(i)`
// run on the calling thread only, so they may print; with jobs == 1 everything runs on the
// calling thread, in order. Used to simulate validation rows two at a time on two cores: each
// work item only forks a child (call_in_child) and waits for it.
//
// Printing while another thread forks must not use stdio (a FILE lock held at fork time stays
// locked in the child); callers pass callbacks that write with write(2) when jobs > 1.
// If a work item throws, no new item starts, the running ones finish, and the first exception
// is rethrown.
#pragma once
#include <functional>

namespace trainsim {

void for_each_in_parallel(int count, int jobs, const std::function<void(int)>& work,
                          const std::function<void(int)>& on_start, const std::function<void(int)>& on_done);

}  // namespace trainsim
