// SimGrid 3.32 allows one engine per process (a second initialisation aborts), so every
// simulation that is not the process's only one runs in a forked child: tests, `validate`,
// and the search's verification all go through call_in_child.
#pragma once
#include <functional>
#include <string>

namespace trainsim {

// Runs `fn` in a forked child and returns the string it returned. If `fn` throws, the child
// reports what() and call_in_child rethrows it here as a UserError with the same text; if the
// child dies (signal, abort), throws std::runtime_error saying how.
[[nodiscard]] std::string call_in_child(const std::function<std::string()>& fn);

}  // namespace trainsim
