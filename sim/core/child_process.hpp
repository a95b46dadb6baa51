// SimGrid 3.32 allows one engine per process (a second initialisation aborts), so every
// simulation that is not the process's only one runs in a forked child: tests, `validate`,
// and the search's verification all go through call_in_child.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace trainsim {

// Runs `fn` in a forked child and returns the string it returned. If `fn` throws, the child
// reports what() and call_in_child rethrows it here as a UserError with the same text; if the
// child dies (signal, abort), throws std::runtime_error saying how.
[[nodiscard]] std::string call_in_child(const std::function<std::string()>& fn);

// Runs each fns[i] in its own forked child, up to `parallel` at once, and returns their results
// in order. Single-threaded: every fork happens on the calling thread (forking from several
// threads can leave a lock held in the child and hang it). on_start(i) and on_done(i, result)
// run on the calling thread, as each child starts and finishes, and may print. If one child fails, no new child starts, the running ones are
// collected, and the first failure is rethrown as call_in_child would.
[[nodiscard]] std::vector<std::string> call_in_children(const std::vector<std::function<std::string()>>& fns,
                                                        int parallel,
                                                        const std::function<void(size_t)>& on_start,
                                                        const std::function<void(size_t, const std::string&)>& on_done);

}  // namespace trainsim
